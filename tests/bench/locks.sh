# make bench-locks, inside the guest: how often si->lock is taken per
# allocation, workload by workload, stock beside clusterswap, and what drives
# the module's acquisitions.  Each workload runs twice on a fresh device:
#   stock  the module not loaded; kprobes count folio_alloc_swap() (folios
#          allocated) and the two stock calls that take si->lock at least
#          once each (get_swap_pages() for allocations,
#          swapcache_free_entries() for a batch of frees): a lower bound
#   on     enabled=1; the module's own counters, by cause (si_lock.why.*)
# One line per run:
#   locks WORKLOAD ARM allocs pswpout alloc_holds free_holds [why=N ...]
# and, per workload, a "rate" line: holds per 1000 allocations, stock's
# lower bound beside the module's.  The workloads are the mix users produce:
#   roomy        threads through a 2 GiB zram device in a memory cgroup
#   nearly_full  the same on a 52 MiB device kept about 90% full
#   mthp         64 KiB mTHP "always": mthpchurn on a 38 MiB device (6.12)
#   swapoff      two devices of one priority, one swapped off and on again
#                every 3 s under the threads
#   cow          fork: shared slots, copied on write, paged out again
#   pageout      one process per vCPU: fill, MADV_PAGEOUT, touch back, on brd
# Every workload verifies the pages it swapped: a bad page stops the run.
. /job/lib.sh
. /job/bench.conf

PROBES="folio_alloc_swap get_swap_pages swapcache_free_entries"
WHY="slow last credit filled full_check stock relist credit_back bounds exact"

# stats_now: the module counters this report reads, on one line.
stats_now() {
	echo "$(cs_stat alloc.total) $(cs_stat si_lock.alloc) $(cs_stat si_lock.free)" \
		"$(for w in $WHY; do printf '%s ' "$(cs_stat si_lock.why.$w)"; done)"
}

# device WORKLOAD: a fresh swap device (or two) for it.
device() {
	swap_clear
	case $1 in
	roomy | cow) zram_swap 0 2G ;;
	nearly_full) zram_swap 0 52M ;;
	mthp) zram_swap 0 38M ;;
	swapoff) zram_swap 0 512M 5; zram_swap 1 512M 5 ;;
	pageout)
		[ -b /dev/ram0 ] || modprobe brd rd_nr=1 rd_size=$((512 * 1024)) || exit 1
		echo 0 >/sys/block/ram0/queue/rotational
		mkswap /dev/ram0 >/dev/null && swapon /dev/ram0 || exit 1
		;;
	esac
}

# workload NAME SEED: run it; exit status 0 when every page verified.
workload() {
	n=$(nproc)
	case $1 in
	roomy) in_memcg locks $BIN/verifier -t "$n" -m 384 -p 2 -s "$2" ;;
	nearly_full)
		# memory.high 32 MiB, max 48: 80 MiB keep 32-48 MiB in swap.
		in_memcg small $BIN/verifier -t "$n" -m 80 -p 3 -s "$2" ;;
	mthp) $BIN/mthpchurn -r 8 -s "$2" ;;
	swapoff)
		in_memcg_bg locks $BIN/verifier -t "$n" -m 256 -d 40 -p 2 -s "$2"
		sleep 3
		i=0
		while running "$bg_pid" && [ $i -lt 10 ]; do
			swapoff /dev/zram1 && swapon -p 5 /dev/zram1 || return 2
			i=$((i + 1))
			sleep 3
		done
		wait "$bg_pid"
		;;
	cow) $BIN/cow -m 64 -r 4 -s "$2" ;;
	pageout)
		pids=
		for p in $(seq 1 "$n"); do
			sh -c "for i in 1 2 3; do $BIN/pageout -a -m $((128 / n)) -s \$(($2 * 100 + $p * 10 + i)) || exit 1; done" &
			pids="$pids $!"
		done
		rc=0
		for p in $pids; do wait "$p" || rc=1; done
		return $rc
		;;
	esac
}

# stock_run WORKLOAD SEED: the workload on stock, kprobes counting.
stock_run() {
	kprobes_on cs_locks $PROBES || { echo "locks: the stock figures need kprobes"; exit 1; }
	o0=$(vmstat pswpout)
	workload "$1" "$2" >/tmp/w.log 2>&1 || { tail -n 5 /tmp/w.log; echo "locks: $1 failed on stock"; exit 1; }
	kprobes_stop cs_locks
	echo "locks $1 stock $(kprobe_hits cs_locks folio_alloc_swap) $(($(vmstat pswpout) - o0))" \
		"$(kprobe_hits cs_locks get_swap_pages) $(kprobe_hits cs_locks swapcache_free_entries)"
	kprobes_off cs_locks $PROBES
}

# on_run WORKLOAD SEED: the workload with the module on, its counters.
on_run() {
	cs_load
	cs_set 1
	set -- "$1" "$2" $(stats_now)
	o0=$(vmstat pswpout)
	workload "$1" "$2" >/tmp/w.log 2>&1 || { tail -n 5 /tmp/w.log; echo "locks: $1 failed with the module on"; exit 1; }
	after=$(stats_now)
	cs_set 0
	[ "$(cat "$CSD/check")" = ok ] || { cat "$CSD/check" | head -n 5; echo "locks: check after $1"; exit 1; }
	rmmod clusterswap || exit 1
	w=$1
	shift 2
	echo "locks $w on $(echo "$after" | awk -v b="$*" -v o=$(($(vmstat pswpout) - o0)) -v why="$WHY" '{
		split(b, a, " "); split(why, names, " ")
		line = ($1 - a[1]) " " o " " ($2 - a[2]) " " ($3 - a[3])
		for (i = 4; i <= NF; i++) line = line " " names[i - 3] "=" ($i - a[i])
		print line }')"
}

memcg locks 96
memcg small 32
echo "config smp=$(nproc) workloads=$WORKLOADS"
seed=1
for w in $WORKLOADS; do
	if [ "$w" = mthp ]; then
		mthp64 always || { echo "locks: mthp skipped: this kernel has no 64 KiB mTHP"; continue; }
	fi
	device "$w"
	stock_run "$w" $seed
	device "$w"
	on_run "$w" $seed
	[ "$w" = mthp ] && mthp64 never
	seed=$((seed + 1))
done
swap_clear
echo "locks: done"
