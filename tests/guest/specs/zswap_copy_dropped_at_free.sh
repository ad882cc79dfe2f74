# zswap in front of zram: once the workload has exited, zswap's stored pages
# are back to where they started within 1 s with the module on (it
# invalidates the zswap copy the moment a slot is freed).  Stock's figure on
# the same workload is printed beside it.  Before zswap is first switched
# on, no page can have a zswap copy and the module makes no
# zswap_invalidate() call at all; switched on while the module serves, the
# copies are dropped from then on.
NEEDS_zswap_copy_dropped_at_free=allocator
# Budget: 71 s on 6.12, 95 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 3.2x the slowest.
TIMEOUT_zswap_copy_dropped_at_free=300
BOOT_zswap_copy_dropped_at_free=own
zswap_stored() {
	cat /sys/kernel/debug/zswap/stored_pages
}
# zswap_run LABEL SEED: prints and sets ${LABEL}_left (pages above the start
# 1 s after the exit) and ${LABEL}_peak.
zswap_run() {
	base=$(zswap_stored)
	in_memcg zs $BIN/verifier -c -t 2 -m 160 -p 2 -d 8 -s "$2" &
	pid=$!
	peak=$base
	while running $pid; do
		s=$(zswap_stored)
		[ "$s" -gt "$peak" ] && peak=$s
		sleep 0.5
	done
	wait $pid
	verifier_ok $? "through zswap, $1"
	sleep 1
	after=$(zswap_stored)
	note "$1: zswap stored pages: $base at the start, peak $peak, $after 1 s after the exit"
	eval "${1}_left=$((after - base)); ${1}_peak=$((peak - base))"
}
test_zswap_copy_dropped_at_free() {
	[ -e /sys/module/zswap/parameters/enabled ] || fail "no zswap in this kernel"
	[ "$(cat /sys/module/zswap/parameters/enabled)" = N ] ||
		fail "zswap is on at boot: this test starts with zswap never enabled"
	zram_swap 0 1G
	cs_load
	memcg zs 64
	cs_set 1
	in_memcg zs $BIN/verifier -t 2 -m 160 -p 2 -s 120
	verifier_ok $? "through zram, zswap never on"
	cs_stats_note zswap_invalidate freed
	[ "$(cs_stat freed)" -gt 10000 ] || fail "only $(cs_stat freed) slots freed: not exercised"
	[ "$(cs_stat zswap_invalidate)" -eq 0 ] ||
		fail "$(cs_stat zswap_invalidate) zswap_invalidate() calls before zswap was ever on"
	echo 1 >/sys/module/zswap/parameters/enabled || fail "cannot enable zswap"
	zswap_run clusterswap 122
	[ "$clusterswap_peak" -gt 1000 ] || fail "zswap stored only $clusterswap_peak pages: not exercised"
	cs_stats_note zswap_invalidate freed
	[ "$(cs_stat zswap_invalidate)" -gt 0 ] || fail "no zswap_invalidate() call with zswap on"
	[ "$clusterswap_left" -le 0 ] ||
		fail "$clusterswap_left zswap pages still stored 1 s after the exit"
	cs_set 0
	zswap_run stock 121
	echo 0 >/sys/module/zswap/parameters/enabled
	cs_check_ok "zswap"
	cs_unload
}
