# make bench, inside the guest: the same swap workload, alternately with the
# stock allocator (enabled=0) and with clusterswap (enabled=1), ROUNDS times
# each, on one zram device in a memory cgroup.  One line per run:
#   run MODE ROUND wall_s sys_s user_s allocs si_lock
# MODE is stock or clusterswap; sys_s and user_s are the cgroup's CPU time
# (cpu.stat), which includes the direct reclaim that allocates swap slots;
# allocs and si_lock are the module's own counters (clusterswap runs only).
# Every run verifies every page it wrote; a bad page stops the benchmark.
. /job/lib.sh
. /job/bench.conf

cpu_usec() {
	sed -n "s/^$2 //p" "$CG/$1/cpu.stat"
}

zram_swap 0 "$ZRAM"
cs_load
memcg bench "$MEMCG_MIB"
echo "config smp=$(nproc) threads=$THREADS mib=$MIB passes=$PASSES memcg_high=${MEMCG_MIB}M zram=$ZRAM rounds=$ROUNDS"
seed=1
for round in $(seq 1 "$ROUNDS"); do
	for mode in stock clusterswap; do
		if [ $mode = stock ]; then cs_set 0; else cs_set 1; fi
		sys0=$(cpu_usec bench system_usec); user0=$(cpu_usec bench user_usec)
		a0=$(cs_stat alloc.order0); l0=$(( $(cs_stat si_lock.alloc) + $(cs_stat si_lock.free) ))
		t0=$(date +%s.%N)
		in_memcg bench $BIN/verifier -t "$THREADS" -m "$MIB" -p "$PASSES" -s $seed >/tmp/v.log 2>&1
		rc=$?
		t1=$(date +%s.%N)
		[ $rc = 0 ] || { cat /tmp/v.log; echo "bench: the verifier failed (exit $rc) in $mode round $round"; exit 1; }
		a=$(( $(cs_stat alloc.order0) - a0 ))
		l=$(( $(cs_stat si_lock.alloc) + $(cs_stat si_lock.free) - l0 ))
		sys=$(( $(cpu_usec bench system_usec) - sys0 )); user=$(( $(cpu_usec bench user_usec) - user0 ))
		echo "$t0 $t1 $sys $user" | awk -v m=$mode -v r=$round -v a=$a -v l=$l \
			'{ printf "run %s %d %.2f %.2f %.2f %d %d\n", m, r, $2 - $1, $3 / 1e6, $4 / 1e6, a, l }'
		seed=$((seed + 1))
	done
done
cs_set 0
check=$(cat "$CSD/check")
echo "check $check"
[ "$check" = ok ] || exit 1
