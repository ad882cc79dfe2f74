# When another ftrace IPMODIFY user (a livepatch, here a stand-in module)
# already owns a function clusterswap redirects, the load is refused and the
# log names that function; once the owner is gone, the load succeeds.
# Budget: 2 s on 6.12, 2 s on 6.1, 3 s on 6.12-deb12, 6 s on 6.12-cloud, 6 s
# on 6.1-cloud (make check, 2-vCPU TCG on a 2-core host); the limit is 10.0x
# the slowest.
TIMEOUT_refuses_owned_hooks=60
test_refuses_owned_hooks() {
	insmod /job/cs_squatter.ko || fail "cannot load the squatter fixture"
	dmesg -C
	out=$(insmod $KO $ARCH_OPT 2>&1) && fail "clusterswap loaded beside another owner of free_swap_slot"
	note "insmod: $out"
	line=$(dmesg | grep 'clusterswap: ')
	note "log: $line"
	echo "$line" | grep -q 'free_swap_slot is already modified by another ftrace user' ||
		fail "the refusal does not name free_swap_slot: '$line'"
	[ ! -e $CS ] || fail "$CS exists after a refused load"
	rmmod cs_squatter || fail "cannot unload the squatter"
	cs_load
	cs_unload
}
