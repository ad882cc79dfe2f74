# With the module loaded and enabled, 4 threads push at least 4x memory.max
# through zram swap; every page comes back intact, and the module's call
# counters show it was on the allocation and free paths.
TIMEOUT_swapped_pages_verify=300
test_swapped_pages_verify() {
	zram_swap 0 1G
	cs_load
	cs_set 1
	memcg verify 128
	allocs0=$(cs_stat calls.folio_alloc_swap)
	frees0=$(cs_frees)
	out0=$(vmstat pswpout)
	in_memcg verify $BIN/verifier -t 4 -m 384 -p 4 -s 11
	verifier_ok $? ""
	swapped=$(( ($(vmstat pswpout) - out0) * 4 / 1024 ))
	allocs=$(( $(cs_stat calls.folio_alloc_swap) - allocs0 ))
	frees=$(( $(cs_frees) - frees0 ))
	max=$(memcg_max_mib verify)
	note "swapped out ${swapped} MiB through a memcg of memory.max ${max} MiB; module saw $allocs allocations, $frees frees"
	[ "$swapped" -ge $((4 * max)) ] || fail "only $swapped MiB went through swap, want >= $((4 * max)) (4x memory.max)"
	[ "$allocs" -gt 0 ] || fail "calls.folio_alloc_swap did not move"
	[ "$frees" -gt 0 ] || fail "no free-path call was counted"
	cs_check_ok "the verifier"
	cs_unload
}
