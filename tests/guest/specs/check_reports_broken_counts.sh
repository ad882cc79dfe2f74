# The consistency check is not a rubber stamp: with the count of one cluster
# of an idle swap device off by one (a test fixture breaks it under the
# kernel's own locks), check names that device and cluster; once repaired,
# check reads "ok" again.
# Budget: 1 s on 6.12, 2 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 30.0x the slowest.
TIMEOUT_check_reports_broken_counts=60
# The broken count trips the module (inconsistency_trips_to_stock_losing_nothing).
ALLOW_LOG_check_reports_broken_counts='clusterswap: tripped to the stock allocator: check: type 1: cluster 0 has count'
test_check_reports_broken_counts() {
	zram_swap 0 256M 10
	zram_swap 1 64M 1
	cs_load
	cs_check_ok "swapon"
	insmod /job/cs_corrupter.ko type=1 || fail "cannot load the corrupter fixture"
	cat /proc/swaps >/dev/null
	echo 1 >/sys/module/cs_corrupter/parameters/corrupt || fail "the fixture cannot find swap type 1"
	out=$(cat $CSD/check)
	note "check with a broken cluster: $out"
	echo "$out" | grep -q '^type 1: cluster 0 has count' || fail "check missed the broken count: '$out'"
	echo 0 >/sys/module/cs_corrupter/parameters/corrupt || fail "the fixture cannot repair"
	cs_check_ok "the repair"
	rmmod cs_corrupter
	cs_unload
}
