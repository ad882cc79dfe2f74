# The module is loaded, enabled and unloaded 10 times while 4 threads swap
# through a memory cgroup: the load runs through every round, and every page
# still comes back intact.
# Budget: 40 s on 6.12, 38 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 6.0x the slowest.
TIMEOUT_reload_under_load_loses_nothing=240
test_reload_under_load_loses_nothing() {
	zram_swap 0 1G
	memcg reload 96
	# Until told to finish (below): the load spans the ten rounds.
	in_memcg_bg reload $BIN/verifier -t 4 -m 192 -p 2 -d 600 -s 31
	pid=$bg_pid
	sleep 1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		running $pid || fail "the load ended before round $i"
		cs_load
		cs_set 1
		sleep 1
		n=$(cs_stat calls.folio_alloc_swap)
		cs_unload
		note "round $i: $n allocations served"
	done
	# Finish the current pass and verify once more.
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "across reloads"
	cs_load
	cs_check_ok "10 reloads under load"
	cs_unload
}
