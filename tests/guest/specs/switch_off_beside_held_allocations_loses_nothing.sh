# Switching off must be as safe as switching on: once the redirects stop,
# stock's final free (slot bytes to 0 first, memcg uncharge, zram data and
# zeromap or frontswap copy after) runs again, and no module allocation that
# read the switch on may still be taking slots under the cluster lock alone
# (module/README.md, D1 at switch-off).  The widener fixture holds stock's
# final free 500 us inside its window and every module allocation 1 ms at
# its fast path (inside cs_pcp.lock), and counts each time the two were in
# their windows at once: never, whether or not they would have met on a
# slot.  The switch flips every 20 ms (6.1: every second) for 40 s while a
# verifier and a loop of short-lived churners (each exit frees whole ranges
# at once, 64 KiB mTHP where the kernel has it, through stock's batch free
# while off) swap in a memory cgroup nested in a parent, on a device small
# enough that freed slots are soon reused.  Every
# page verifies; the parent's swap charge is exactly 0 once swap is off (a
# slot handed out inside stock's window leaves one owner's charge behind);
# and check reads ok.
# Budget: 65 s on 6.12, 72 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 5.0x the slowest.
TIMEOUT_switch_off_beside_held_allocations_loses_nothing=360
NEEDS_switch_off_beside_held_allocations_loses_nothing=allocator

# churn_loop SECONDS: short mthpchurn runs, one after another, in f1/load.
churn_loop() {
	_end=$(($(date +%s) + $1))
	_seed=400
	while [ "$(date +%s)" -lt "$_end" ]; do
		in_memcg f1/load $BIN/mthpchurn -m 4 -k 1 -r 1 -s $_seed >/tmp/churn.out ||
			{ echo "mthpchurn seed $_seed: $(tail -n 2 /tmp/churn.out)" >/tmp/churn.fail; return 1; }
		_seed=$((_seed + 1))
	done
	echo $((_seed - 400)) >/tmp/churn.runs
}

test_switch_off_beside_held_allocations_loses_nothing() {
	mthp64 always
	zram_swap 0 72M
	cs_load
	W=/sys/module/cs_widener/parameters
	insmod /job/cs_widener.ko delay_us=500 alloc_func=cs_alloc_fast alloc_delay_us=1000 alloc_every=1 ||
		fail "insmod cs_widener.ko (no cs_alloc_fast to probe in this build?)"
	memcg_controller_on
	mkdir "$CG/f1" && echo +memory >"$CG/f1/cgroup.subtree_control" || fail "memcg f1"
	memcg f1/load 48
	in_memcg_bg f1/load $BIN/verifier -t 2 -m 96 -z 3 -d 40 -s 441
	pid=$bg_pid
	churn_loop 40 &
	churn=$!
	# 6.1 allocates only once its take-over (an RCU-tasks grace period and
	# a slot cache drain) is done, which takes longer than 20 ms here.
	pace=20 least=100
	[ "$(cs_line)" = 6.1 ] && pace=1000 least=20
	$BIN/flipper -i $pace -d 40 >/tmp/flipper.log 2>&1 &
	flip_pid=$! flip_want=$least
	flip_end
	wait $pid
	verifier_ok $? "with the switch flipping beside held allocations"
	wait $churn || fail "$(cat /tmp/churn.fail)"
	held=$(cat $W/held)
	stock_frees=$(cat $W/hits)
	overlaps=$(cat $W/overlaps)
	note "flipped $flips times (slowest write ${flip_slowest_ms} ms); $(cat /tmp/churn.runs) churner runs; module allocations held $held times; stock final frees widened $stock_frees times; both in their windows at once: $overlaps"
	[ "$held" -gt 0 ] || fail "no module allocation was held: the fixture's probe is not live"
	[ "$stock_frees" -gt 0 ] || fail "no stock final free ran while off: the test did not exercise the window"
	[ "$overlaps" = 0 ] || fail "a module allocation ran inside stock's final-free window $overlaps times"
	cs_check_ok "flipping the switch beside held allocations"
	rmmod cs_widener
	rmdir "$CG/f1/load" || fail "cannot remove f1/load"
	swapoff /dev/zram0 || fail "swapoff"
	left=$(cat "$CG/f1/memory.swap.current")
	[ "$left" = 0 ] || fail "f1's memory.swap.current reads $left with swap off: a swap charge was lost"
	mthp64 never
	cs_unload
}
