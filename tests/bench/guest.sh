# make bench, inside the guest: each workload of bench.conf, ROUNDS rounds,
# each round the arms of ARMS_ALL in turn, the order rotated from round to
# round (arms.sh):
#   unloaded  the module not loaded: the true stock kernel
#   off       loaded, enabled=0: every call passes the ftrace trampoline
#   redirect  where bench.conf's ARMS_ALL has it: the passthrough bench build
#             (clusterswap-passthrough.ko) with enabled=1, every call
#             redirected to a replacement that only calls the original
#   on        enabled=1: clusterswap allocates
# The module is loaded and unloaded between runs, with nothing swapping.
# ARMS (bench.conf) may name only unloaded: the reference kernel (Debian
# sid's, upstream's own allocator) has no module to load; or one arm, when
# the host boots once per arm and round (ROUND_FIRST, SEED_FIRST: the
# round's number and first seed).
# One line per run:
#   run WORKLOAD ARM ROUND wall_s sys_us pswpout pswpin allocs si_lock ops
# WORKLOAD_SECONDS (bench.conf, 0 or unset: no limit): a round of a workload
# starts only while the workload has run less than that many seconds in this
# boot; its first round always runs (the bench bundle's time budget).
# sys_us is the workload cgroup's system CPU time (cpu.stat), which includes
# the direct reclaim that allocates swap slots; pswpout and pswpin are
# /proc/vmstat deltas; allocs and si_lock are the module's counters (arm on);
# ops is the workload's own figure (stress-ng bogo ops), else 0.  Every run
# verifies the data it swapped: a bad page stops the benchmark (exit 1).
. /job/lib.sh
. /job/arms.sh
. /job/bench.conf

# now: seconds since some fixed time, with a fraction (busybox date, in the
# bench bundle's guest, has no %N: the uptime's hundredths then).
now() {
	_t=$(date +%s.%N)
	case $_t in
	*N) cut -d ' ' -f 1 /proc/uptime ;;
	*) echo "$_t" ;;
	esac
}

cpu_usec() {
	sed -n "s/^$2 //p" "$CG/$1/cpu.stat"
}

# arm ARM: the module as ARM has it.  $loaded: the build in the kernel
# (clusterswap.ko or clusterswap-passthrough.ko), empty when none is.
loaded=
arm() {
	local want=clusterswap.ko

	case $1 in
	unloaded) want= ;;
	redirect) want=clusterswap-passthrough.ko ;;
	esac
	if [ "$loaded" != "$want" ]; then
		[ -z "$loaded" ] || rmmod clusterswap || exit 1
		loaded=
		[ -z "$want" ] || { insmod "/job/$want" || exit 1; loaded=$want; }
	fi
	case $1 in
	off) cs_set 0 ;;
	on | redirect) cs_set 1 ;;
	esac
	return 0
}

# device WORKLOAD: the swap device the workload uses, alone.
device() {
	swapoff -a
	case $1 in
	pageout)
		# brd: a RAM disk without compression, to measure the allocator.
		# Not rotational (as zram), so that the allocator serves it.
		[ -b /dev/ram0 ] || modprobe brd rd_nr=1 rd_size=$((${BRD_MIB:-1024} * 1024)) || exit 1
		echo 0 >/sys/block/ram0/queue/rotational
		mkswap /dev/ram0 >/dev/null && swapon /dev/ram0 || exit 1
		;;
	*)
		if ! grep -q '^/dev/zram0 ' /proc/swaps; then
			[ -e /sys/block/zram0 ] || modprobe zram num_devices=1 || exit 1
			echo 1 >/sys/block/zram0/reset
			echo "${ZRAM_SIZE:-2G}" >/sys/block/zram0/disksize
			mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 || exit 1
		fi
		;;
	esac
}

# workload NAME SEED: run it in the bench memcg; prints its ops figure.
workload() {
	n=$(nproc)
	case $1 in
	verifier)
		t=$n
		in_memcg bench $BIN/verifier -t "$t" -m "$VERIFIER_MIB" -p 2 -s "$2" >/tmp/w.log 2>&1
		;;
	single)
		in_memcg bench $BIN/verifier -t 1 -m "$SINGLE_MIB" -p 2 -s "$2" >/tmp/w.log 2>&1
		;;
	pageout)
		# N processes, each: mmap, fill, MADV_PAGEOUT, touch back
		# (verified), munmap; PAGEOUT_LOOPS times.  -a: a page that
		# stays resident is not an error here (the figures count the
		# pages swapped out): with several processes in one memcg under
		# pressure, reclaim isolates some pages while MADV_PAGEOUT runs,
		# in every arm (stock at -smp 2 left 204 of 16,384 resident).
		: >/tmp/w.log
		pids=
		for p in $(seq 1 "$n"); do
			in_memcg bench sh -c "for i in \$(seq 1 $PAGEOUT_LOOPS); do
				$BIN/pageout -a -m $((PAGEOUT_MIB / n)) -s \$((${2}00 + $p * 10 + i)) || exit 1; done" >>/tmp/w.log 2>&1 &
			pids="$pids $!"
		done
		rc=0
		for p in $pids; do wait "$p" || rc=1; done
		return $rc
		;;
	stressng)
		in_memcg bench stress-ng --pageswap "$n" --timeout "${STRESS_SECONDS}s" --verify \
			--metrics-brief >/tmp/w.log 2>&1 || return 1
		# "stressng: ... pageswap  OPS  REAL USR SYS  BOGO/s(real) ..."
		ops=$(awk '$0 ~ /pageswap/ && $(NF - 1) ~ /^[0-9.]+$/ {print $5}' /tmp/w.log | tail -n 1)
		echo "${ops:-0}" >/tmp/w.ops
		return 0
		;;
	esac
}

memcg bench "$MEMCG_MIB"
echo "config smp=$(nproc) workloads=$WORKLOADS rounds=$ROUNDS memcg_high=${MEMCG_MIB}M"
seed=${SEED_FIRST:-1}
first=${ROUND_FIRST:-1}
for w in $WORKLOADS; do
	device "$w"
	w0=$(now)
	for round in $(seq "$first" $((first + ROUNDS - 1))); do
		if [ "${WORKLOAD_SECONDS:-0}" -gt 0 ] && [ "$round" -gt "$first" ] &&
			[ "$(echo "$w0 $(now)" | awk '{print int($2 - $1)}')" -ge "$WORKLOAD_SECONDS" ]; then
			break
		fi
		for a in ${ARMS:-$(arms_of_round "$round" $ARMS_ALL)}; do
			arm "$a"
			echo 0 >/tmp/w.ops
			sys0=$(cpu_usec bench system_usec)
			out0=$(vmstat pswpout); in0=$(vmstat pswpin)
			a0=0; l0=0
			if [ "$a" = on ]; then
				a0=$(cs_stat alloc.total); l0=$(( $(cs_stat si_lock.alloc) + $(cs_stat si_lock.free) ))
			fi
			t0=$(now)
			workload "$w" $seed
			rc=$?
			t1=$(now)
			if [ $rc != 0 ]; then
				tail -n 5 /tmp/w.log
				echo "bench: $w failed (exit $rc) in arm $a round $round: a bad page or a setup error"
				exit 1
			fi
			out=$(( $(vmstat pswpout) - out0 ))
			# A run that swapped nothing measured nothing: say what it printed.
			if [ "$out" = 0 ]; then
				tail -n 5 /tmp/w.log
				echo "bench: $w swapped no page in arm $a round $round: not a measurement"
				exit 1
			fi
			al=0; ll=0
			if [ "$a" = on ]; then
				al=$(( $(cs_stat alloc.total) - a0 ))
				ll=$(( $(cs_stat si_lock.alloc) + $(cs_stat si_lock.free) - l0 ))
			fi
			echo "$t0 $t1" | awk -v w=$w -v a=$a -v r=$round \
				-v s=$(( $(cpu_usec bench system_usec) - sys0 )) \
				-v o=$out -v i=$(( $(vmstat pswpin) - in0 )) \
				-v al=$al -v ll=$ll -v ops="$(cat /tmp/w.ops)" \
				'{ printf "run %s %s %d %.3f %d %d %d %d %d %s\n", w, a, r, $2 - $1, s, o, i, al, ll, ops }'
			seed=$((seed + 1))
		done
	done
done
# PROFILE=1: after the measured rounds, PROFILE_RUNS more runs of each
# workload in each arm of ARMS_ALL (the order rotated from run to run), under
# perf record (cpu-clock, every CPU, PROFILE_HZ samples a second, default
# 2000): the symbols that take the
# time, so that a difference can be traced to code.  Each run's pages
# swapped out and the rate are printed with its samples, so that the report
# can compare arms per page.  PROFILE_CALLERS=SYMBOL: the runs also record
# call chains, and each prints the chains that lead to SYMBOL (a lock's slow
# path: whose lock it is).  cpu-clock samples from a timer interrupt, so
# time spent with interrupts off is charged where they come back on.  Not
# counted in the figures above: perf itself costs time.
if [ "${PROFILE:-0}" = 1 ]; then
	hz=${PROFILE_HZ:-2000}
	graph=
	[ -z "${PROFILE_CALLERS:-}" ] || graph=-g
	for w in $WORKLOADS; do
		device "$w"
		for run in $(seq 1 "${PROFILE_RUNS:-1}"); do
			for a in $(arms_of_round "$run" $ARMS_ALL); do
				arm "$a"
				# -N: no build-id cache in the guest's memory.
				perf record -q -N -a $graph -e cpu-clock -F "$hz" -o /tmp/perf.data >/tmp/perf.log 2>&1 &
				perf=$!
				# perf record -a first reads every task's maps and the
				# kernel's symbols: seconds under emulation, before its
				# first sample.
				sleep 10
				out0=$(vmstat pswpout)
				workload "$w" $seed || { echo "bench: $w failed under perf"; exit 1; }
				out=$(( $(vmstat pswpout) - out0 ))
				kill -INT $perf
				# perf record ends by raising the SIGINT it caught again:
				# an exit status of 128 + 2 is its normal stop.
				wait $perf
				rc=$?
				[ $rc = 0 ] || [ $rc = 130 ] ||
					{ echo "bench: perf record failed (exit $rc): $(tail -n 3 /tmp/perf.log)"; exit 1; }
				perf report -q -n -i /tmp/perf.data --stdio --no-children -g none --sort dso,sym 2>/dev/null |
					grep -v '^$' >/tmp/perf.txt
				echo "profile $w $a: $(awk '{n += $2} END {print n + 0}' /tmp/perf.txt) samples" \
					"(every CPU, idle included), run $run, $out pages out, $hz Hz;" \
					"symbols of 10 samples or more: share, samples, dso, symbol"
				awk '$2 + 0 >= 10' /tmp/perf.txt | sed "s/^/profile $w $a |/"
				if [ -n "$graph" ]; then
					echo "callers $w $a: the chains to $PROFILE_CALLERS, 1% and more of its samples"
					perf report -q -i /tmp/perf.data --stdio --no-children --sort sym \
						--symbols "$PROFILE_CALLERS" --max-stack 6 -g fractal,1,callee \
						>/tmp/callers.txt 2>/tmp/perf.log ||
						echo "perf report failed: $(tail -n 3 /tmp/perf.log)" >/tmp/callers.txt
					grep -q . /tmp/callers.txt || echo "(no samples)" >/tmp/callers.txt
					grep -v "^$" /tmp/callers.txt | head -n 150 | sed "s/^/callers $w $a |/"
				fi
				# tmpfs: the guest's memory, which the next run swaps.
				rm -f /tmp/perf.data /tmp/perf.data.old /tmp/perf.txt /tmp/callers.txt
				seed=$((seed + 1))
			done
		done
	done
fi
[ "${ARMS:-$ARMS_ALL}" = unloaded ] && exit 0
arm off
# What the module costs in memory (issue: printed by the bench).
echo "memory $(tr '\n' ' ' <"$CSD/memory")coresize $(cat /sys/module/clusterswap/coresize) cpus $(nproc)"
check=$(cat "$CSD/check")
echo "check $check"
[ "$check" = ok ] || exit 1
