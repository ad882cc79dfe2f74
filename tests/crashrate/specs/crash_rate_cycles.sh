# The crash-rate probe's cycle (tests/crashrate.sh), shared by both arms.
# While 2 threads swap through a memory cgroup, each cycle patches kernel
# text as the suite's tests do: an ftrace user is loaded on clusterswap's
# call sites ("load"), a kprobe event on put_swap_folio is enabled, which
# also switches the sched tracepoints on for the tracer's command-line
# record, then disabled and removed, and the ftrace user is unloaded
# ("unload").  Each cycle's end goes to the kernel log, so a guest that
# dies leaves its count on the serial console.  The verifier checks every
# page at the end.
CRASH_RATE_SECONDS=$(cat /job/crashrate_seconds 2>/dev/null || echo 90)
TIMEOUT_crash_rate=$((CRASH_RATE_SECONDS + 120))

crash_rate_cycles() {
	zram_swap 0 1G
	memcg crash 96
	in_memcg crash $BIN/verifier -t 2 -m 192 -d "$CRASH_RATE_SECONDS" -s 71 &
	pid=$!
	sleep 2
	end=$(( $(date +%s) + CRASH_RATE_SECONDS - 10 ))
	n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		load
		kprobes_on crash put_swap_folio || fail "no kprobe on put_swap_folio"
		sleep 0.2
		kprobes_stop crash
		kprobes_off crash put_swap_folio
		unload
		n=$((n + 1))
		echo "crashrate: cycle $n" >/dev/kmsg
	done
	wait $pid
	verifier_ok $? "after $n cycles"
	note "crashrate: $n cycles"
}
