# madvise(MADV_PAGEOUT) of a known region with the module enabled: the pages
# leave memory (mincore), each went through the module's allocation hook, and
# every byte comes back on swap-in.
# Budget: 2 s on 6.12, 2 s on 6.1 (make check, 2-vCPU TCG on a 2-core host);
# the limit is 60.0x the slowest.
TIMEOUT_paged_out_pages_verify=120
test_paged_out_pages_verify() {
	zram_swap 0 512M
	cs_load
	cs_set 1
	allocs0=$(cs_stat calls.folio_alloc_swap)
	$BIN/pageout -m 32 -s 5 || fail "pageout failed (exit $?)"
	allocs=$(( $(cs_stat calls.folio_alloc_swap) - allocs0 ))
	note "module saw $allocs allocations for 8192 pages"
	[ "$allocs" -ge 8110 ] || fail "only $allocs of 8192 paged-out pages went through the module"
	cs_check_ok "pageout"
	cs_unload
}
