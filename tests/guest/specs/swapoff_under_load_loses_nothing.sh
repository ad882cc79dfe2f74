# Two zram devices of equal priority take the load of 4 threads; one of them
# is swapped off and on again 20 times meanwhile, each once it stores pages
# again (zram's own count: /proc/swaps' Used also counts credit) or 10 s
# have gone by, and at least 15 of those swapoffs find pages to bring back
# (on the debug kernel a fixed half second between them left 8 of 20
# finding none but credit).  swapoff brings every page
# of the leaving device back (the module stops allocating there, fences, and
# returns its inuse_pages credit), swapon puts it back in service, and every
# page comes back intact.
NEEDS_swapoff_under_load_loses_nothing=allocator
# Budget: 56 s on 6.12, 41 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 7.1x the slowest.
TIMEOUT_swapoff_under_load_loses_nothing=400
test_swapoff_under_load_loses_nothing() {
	zram_swap 0 512M 5
	zram_swap 1 512M 5
	header=$(zram_pages 1)
	cs_load
	cs_set 1
	memcg cycles 96
	in_memcg_bg cycles $BIN/verifier -t 4 -m 256 -d 300 -p 2 -s 61
	pid=$bg_pid
	sleep 2
	i=0
	with_pages=0
	while [ $i -lt 20 ]; do
		running $pid || fail "the load ended after $i cycles"
		w=0
		while [ "$(zram_pages 1)" -le "$header" ] && [ $w -lt 100 ]; do sleep 0.1; w=$((w + 1)); done
		used=$(swap_used /dev/zram1)
		stored=$(($(zram_pages 1) - header))
		[ "$stored" -gt 0 ] && with_pages=$((with_pages + 1))
		swapoff /dev/zram1 || fail "swapoff zram1 failed in cycle $((i + 1))"
		grep -q zram1 /proc/swaps && fail "zram1 still listed after swapoff"
		swapon -p 5 /dev/zram1 || fail "swapon zram1 failed in cycle $((i + 1))"
		i=$((i + 1))
		note "cycle $i: zram1 stored $stored pages (${used} KiB used) when swapped off"
	done
	[ "$with_pages" -ge 15 ] || fail "only $with_pages of 20 swapoffs found pages on zram1"
	# Finish the current pass and verify once more.
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "across swapoff/swapon"
	cs_stats_note alloc.total alloc.slow credit.return si_lock.free si_lock.why.credit_back
	cs_check_ok "20 swapoff/swapon cycles under load"
	cs_unload
}
