# The switch flips every 100 ms for 20 s (at least 50 flips) while 4 threads swap through two
# zram devices and one of them is swapped off and on again, over and over:
# swapoff's fence and credit hand-back meet the switch's take-over and
# hand-back (on 6.1 the take-over waits for the slot cache's mutex, which
# swapoff holds through try_to_unuse).  Every swapoff ends, every page comes
# back intact, and check reads ok.
NEEDS_switch_flips_during_swapoff_lose_nothing=allocator
# Budget: 35 s on 6.12, 44 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 6.8x the slowest.
TIMEOUT_switch_flips_during_swapoff_lose_nothing=300
test_switch_flips_during_swapoff_lose_nothing() {
	zram_swap 0 512M 5
	zram_swap 1 512M 5
	cs_load
	cs_set 1
	memcg flipoff 96
	in_memcg_bg flipoff $BIN/verifier -t 4 -m 256 -d 200 -p 2 -s 67
	pid=$bg_pid
	sleep 2
	flip_start 20 50
	cycles=0
	while running $flip_pid; do
		running $pid || fail "the load ended after $cycles swapoff cycles"
		swapoff /dev/zram1 || fail "swapoff zram1 failed in cycle $((cycles + 1))"
		swapon -p 5 /dev/zram1 || fail "swapon zram1 failed in cycle $((cycles + 1))"
		cycles=$((cycles + 1))
	done
	flip_end
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "with the switch flipping across swapoff/swapon"
	note "$cycles swapoff/swapon cycles of zram1 while the switch flipped $flips times"
	[ "$cycles" -ge 3 ] || fail "only $cycles swapoff cycles in 20 s"
	cs_stats_note alloc.total alloc.slow credit.return
	cs_check_ok "flips during swapoff/swapon"
	cs_unload
}
