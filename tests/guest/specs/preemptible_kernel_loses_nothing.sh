# On a fully preemptible kernel (preempt=full: a free can move CPU between
# giving back credit and settling it), the switch flips under load, a device
# is swapped off and on 10 times (each swapoff ends within 60 s: no credit is
# stranded on another CPU), and the module is unloaded and loaded again under
# load; every page verifies.
# Budget: 45 s on 6.12, 56 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 8.6x the slowest.
TIMEOUT_preemptible_kernel_loses_nothing=480
APPEND_preemptible_kernel_loses_nothing="preempt=full"
BOOT_preemptible_kernel_loses_nothing=own
NEEDS_preemptible_kernel_loses_nothing="allocator preempt_dynamic"
test_preemptible_kernel_loses_nothing() {
	grep -q '(full)' /sys/kernel/debug/sched/preempt ||
		fail "not a preempt=full boot: $(cat /sys/kernel/debug/sched/preempt)"
	zram_swap 0 512M 5
	zram_swap 1 512M 5
	cs_load
	cs_set 1
	memcg pf 96
	in_memcg_bg pf $BIN/verifier -t 4 -m 256 -p 2 -d 600 -s 101
	pid=$bg_pid
	sleep 2
	flip_for 10 50
	note "flipped the switch $flips times"
	cs_set 1
	i=0
	while [ $i -lt 10 ]; do
		running $pid || fail "the load ended after $i swapoff cycles"
		timeout 60 swapoff /dev/zram1 ||
			fail "swapoff zram1 did not finish in 60 s (cycle $((i + 1))): $(grep credit $CSD/percpu | head -n 3)"
		swapon -p 5 /dev/zram1 || fail "swapon zram1 (cycle $((i + 1)))"
		i=$((i + 1))
	done
	for r in 1 2 3; do
		cs_unload
		cs_load
		cs_set 1
		sleep 1
	done
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "on a preempt=full kernel"
	cs_stats_note alloc.total credit.return si_lock.free
	cs_check_ok "preempt=full: flips, swapoff cycles, reloads"
	cs_unload
}
