# With the module loaded and enabled, 4 threads push at least 4x memory.max
# through zram swap; every page comes back intact, and the module's call
# counters show it was on the allocation and free paths.
# Budget: 55 s on 6.12, 54 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); on the smoke kernels 101-151 s with the twice heavier workload
# before (384 MiB, 4 passes), the cloud kernels slowest; the limit is 2x
# that.
TIMEOUT_swapped_pages_verify=300
test_swapped_pages_verify() {
	zram_swap 0 1G
	cs_load
	cs_set 1
	memcg verify 64
	allocs0=$(cs_stat calls.folio_alloc_swap)
	frees0=$(cs_frees)
	out0=$(vmstat pswpout)
	in_memcg verify $BIN/verifier -t 4 -m 256 -p 3 -s 11
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
