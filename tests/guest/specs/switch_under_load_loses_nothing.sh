# The switch flips every 100 ms for 30 s, and on until at least 150 flips
# (each state seeing hundreds of allocations), while 8 threads swap through
# zram in a memory cgroup: every page still comes back intact.
# Budget: 44 s on 6.12, 44 s on 6.1, 55 s on 6.12-deb12, 51 s on 6.12-cloud,
# 63 s on 6.1-cloud (make check, 2-vCPU TCG on a 2-core host); the limit is
# 3.8x the slowest.
TIMEOUT_switch_under_load_loses_nothing=240
test_switch_under_load_loses_nothing() {
	zram_swap 0 1G
	cs_load
	memcg toggle 96
	in_memcg_bg toggle $BIN/verifier -t 8 -m 256 -p 2 -d 600 -s 21
	pid=$bg_pid
	flip_for 30 150
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "with the switch flipping"
	note "flipped the switch $flips times (slowest write ${flip_slowest_ms} ms); module saw $(cs_stat calls.folio_alloc_swap) allocations"
	cs_stats_note alloc.total alloc.fast alloc.slow freed
	[ "$(cs_stat calls.folio_alloc_swap)" -gt 0 ] || fail "the module never served an allocation"
	cs_check_ok "flipping the switch under load"
	cs_unload
}
