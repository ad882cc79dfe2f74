# When something is wrong the module goes back to stock on its own, under
# load, losing nothing: a test fixture breaks the count of a cluster on an
# idle second device while a verifier swaps to the first with the module
# on; debugfs check names it, and, since no reading can explain it, trips
# the module.  Then "enabled" reads 0, "tripped" (readable by anyone) says
# when and why, the "tripped" tracepoint fired once, and switching on is
# refused (EBUSY) until root clears "tripped" by writing 0 to it (anything
# else is rejected).  The verifier's pages, swapped through both allocators
# across the trip, all verify; with the count repaired, check reads ok, and
# the switch goes on again.
# Budget: 28 s on 6.12, 27 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 8.6x the slowest.
TIMEOUT_inconsistency_trips_to_stock_losing_nothing=240
NEEDS_inconsistency_trips_to_stock_losing_nothing=allocator
# The one trip it provokes; any other trip or warning still fails it.
ALLOW_LOG_inconsistency_trips_to_stock_losing_nothing='clusterswap: tripped to the stock allocator: check: type 1: cluster 0 has count'

T=/sys/kernel/tracing

test_inconsistency_trips_to_stock_losing_nothing() {
	zram_swap 0 512M 10
	zram_swap 1 64M 1
	cs_load
	[ -z "$(cat $CS/tripped)" ] || fail "tripped reads '$(cat $CS/tripped)' right after load"
	[ "$(stat -c %a $CS/tripped)" = 644 ] || fail "tripped has mode $(stat -c %a $CS/tripped)"
	insmod /job/cs_corrupter.ko type=1 || fail "cannot load the corrupter fixture"
	cat /proc/swaps >/dev/null
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/clusterswap/tripped/enable || fail "no clusterswap:tripped tracepoint"
	echo 1 >$T/tracing_on
	cs_set 1
	memcg trip 64
	# Until told to finish, once the fixture has repaired the count.
	in_memcg_bg trip $BIN/verifier -t 2 -m 160 -p 2 -z 3 -d 600 -s 611
	pid=$bg_pid
	sleep 8
	echo 1 >/sys/module/cs_corrupter/parameters/corrupt || fail "the fixture cannot find swap type 1"
	out=$(cat $CSD/check)
	note "check with a broken cluster, under load: $(echo "$out" | head -n 2 | tr '\n' ';')"
	echo "$out" | grep -q '^type 1: cluster 0 has count' || fail "check missed the broken count: '$out'"
	i=0
	while [ "$(cat $CS/enabled)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(cat $CS/enabled)" = 0 ] || fail "enabled still reads 1 10 s after the trip"
	why=$(setpriv --reuid=65534 --regid=65534 --clear-groups cat $CS/tripped) ||
		fail "tripped is not readable without root"
	note "tripped: $why"
	echo "$why" | grep -q 'UTC: check: type 1: cluster 0 has count' || fail "tripped reads '$why'"
	# dd names the error (the shell's echo says only "I/O error").
	echo 1 | dd of=$CS/enabled 2>/tmp/on.err && fail "switching on was not refused after the trip"
	grep -q 'Device or resource busy' /tmp/on.err ||
		fail "switching on after the trip failed with '$(tail -n 1 /tmp/on.err)', want EBUSY"
	[ "$(cat $CS/enabled)" = 0 ] || fail "enabled reads $(cat $CS/enabled) after a refused switch-on"
	echo 1 >$CS/tripped 2>/dev/null && fail "tripped took '1'"
	echo 0 >/sys/module/cs_corrupter/parameters/corrupt || fail "the fixture cannot repair"
	running $pid || fail "the load ended before the repair"
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "across the trip"
	echo 0 >$T/tracing_on
	echo 0 >$T/events/clusterswap/tripped/enable
	events=$(grep -c 'tripped: check: type 1' $T/trace)
	[ "$events" = 1 ] || fail "the tripped tracepoint fired $events times, want 1"
	cs_stats_note alloc.total freed
	rmmod cs_corrupter
	cs_check_ok "the repair"
	echo 0 >$CS/tripped || fail "root cannot clear tripped"
	[ -z "$(cat $CS/tripped)" ] || fail "tripped reads '$(cat $CS/tripped)' after clearing"
	cs_set 1
	cs_set 0
	cs_unload
}
