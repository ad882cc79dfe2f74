# Debug kernels: the module leaks no memory.  It is loaded, swaps with the
# allocator on (swapon and swapoff of a second device included, which build
# and drop the per-device debugfs views), is switched off and unloaded; then
# kmemleak scans twice (an object must stay unreferenced across two scans to
# be reported) and reports no object allocated from the module's code.
TIMEOUT_unload_leaks_nothing=300
DEBUG_unload_leaks_nothing=only
test_unload_leaks_nothing() {
	K=/sys/kernel/debug/kmemleak
	[ -e $K ] || fail "no kmemleak on this kernel"
	echo clear >$K
	zram_swap 0 256M
	cs_load
	cs_set 1
	zram_swap 1 64M 5
	memcg leak 48
	in_memcg leak $BIN/verifier -t 2 -m 96 -p 2 -s 161
	verifier_ok $? "before the kmemleak scan"
	swapoff /dev/zram1 || fail "swapoff zram1"
	cs_check_ok "before unloading"
	cs_set 0
	cs_unload
	echo scan >$K
	sleep 5
	echo scan >$K
	leaks=$(grep -c 'clusterswap\|cs_' $K)
	note "kmemleak: $(grep -c '^unreferenced object' $K) unreferenced objects in all, $leaks lines naming clusterswap"
	[ "$leaks" = 0 ] || { grep -B2 -A12 'clusterswap\|cs_' $K | head -n 40; fail "kmemleak reports objects from clusterswap"; }
}
