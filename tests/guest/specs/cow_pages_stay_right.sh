# Swapped pages shared by fork, then copied on write in parent and child,
# stay right in both (each verifies every page, three rounds of page-out).
# Budget: 11 s on 6.12, 10 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 16.4x the slowest.
TIMEOUT_cow_pages_stay_right=180
test_cow_pages_stay_right() {
	zram_swap 0 512M
	cs_load
	cs_set 1
	$BIN/cow -m 64 -r 3 -s 101
	verifier_ok $? "after fork and copy-on-write"
	cs_check_ok "fork and copy-on-write"
	cs_unload
}
