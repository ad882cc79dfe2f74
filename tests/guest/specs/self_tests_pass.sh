# The module's pure logic passes its table-driven self-tests, run at load in
# a test build (make CS_SELFTEST=y): the switch's parsing, the kernel gate's
# verdict on release strings, and on 6.12 the allocator's packed per-CPU
# words and credit arithmetic.  The count is printed; a test build with a
# failing self-test refuses to load.
# Budget: 1 s on 6.12, 1 s on 6.1, 1 s on 6.12-deb12, 4 s on 6.12-cloud, 4 s
# on 6.1-cloud (make check, 2-vCPU TCG on a 2-core host); the limit is 15.0x
# the slowest.
TIMEOUT_self_tests_pass=60
test_self_tests_pass() {
	insmod /job/clusterswap-selftest.ko $ARCH_OPT ||
		fail "the test build refused to load: $(dmesg | grep selftest | head -n 5 | tr '\n' ';')"
	result=$(dmesg | grep -o 'selftest: [0-9]* passed, [0-9]* failed')
	note "$result"
	[ -n "$result" ] || fail "no self-test count in the kernel log"
	echo "$result" | grep -q ' 0 failed$' || fail "$result"
	n=$(echo "$result" | awk '{print $2}')
	[ "$n" -ge 30 ] || fail "only $n self-tests ran"
	rmmod clusterswap || fail "rmmod of the test build"
}
