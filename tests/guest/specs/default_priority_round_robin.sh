# Devices swapped on without a priority: stock 6.12 numbers them -2, -3 in
# swapon order and fills the first before it touches the next.  With the
# module on and round_robin at its default (1), they are one tier used round
# robin, as upstream does since "mm/swap: select swap device with default
# priority round robin": both carry the load while neither is full.  With
# round_robin=0 the stock order is back: the second device stays unused.
# The knob takes exactly 0 or 1, and every page is verified.
# Budget: 35 s on 6.12, 33 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 6.9x the slowest.
TIMEOUT_default_priority_round_robin=240
NEEDS_default_priority_round_robin=allocator

# rr_run SEED: the verifier through both devices; $peaks: their peaks in KiB.
rr_run() {
	in_memcg_bg rr $BIN/verifier -t 2 -m 96 -p 2 -s "$1"
	peaks=$(swap_peaks $bg_pid /dev/zram0 /dev/zram1)
	wait $bg_pid
	verifier_ok $? "(seed $1)"
}

test_default_priority_round_robin() {
	zram_swap 0 1G
	zram_swap 1 1G
	prios=$(awk '$1 ~ /zram/ {printf "%s ", $5}' /proc/swaps)
	note "priorities in /proc/swaps: $prios"
	[ "$prios" = "-2 -3 " ] || fail "want default priorities -2 -3, got $prios"
	cs_load
	[ "$(cat $CS/round_robin)" = 1 ] || fail "round_robin reads $(cat $CS/round_robin), want the default 1"
	for bad in 2 on -1 "1 1" 10 " "; do
		printf '%s' "$bad" >$CS/round_robin 2>/dev/null && fail "round_robin accepted '$bad'"
	done
	[ "$(cat $CS/round_robin)" = 1 ] || fail "a rejected write changed round_robin"
	memcg rr 48

	rr_run 91
	note "module off (stock): peak KiB zram0 zram1: $peaks"
	set -- $peaks
	[ "$1" -gt 0 ] && [ "$2" = 0 ] || fail "stock should fill zram0 first: $peaks"

	cs_set 1
	rr0=$(cs_stat alloc.round_robin)
	rr_run 92
	note "module on, round_robin=1: peak KiB zram0 zram1: $peaks; round-robin turns $(( $(cs_stat alloc.round_robin) - rr0 ))"
	set -- $peaks
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "round robin left a device unused: $peaks"
	# Neither carries more than twice the other's peak.
	[ "$1" -le $(($2 * 2)) ] && [ "$2" -le $(($1 * 2)) ] || fail "uneven round robin: $peaks"
	cs_check_ok "round robin"

	swap_clear
	zram_swap 0 1G
	zram_swap 1 1G
	echo 0 >$CS/round_robin || fail "cannot write 0 to round_robin"
	rr_run 93
	note "module on, round_robin=0: peak KiB zram0 zram1: $peaks"
	set -- $peaks
	[ "$1" -gt 0 ] && [ "$2" = 0 ] || fail "round_robin=0 should keep the stock order: $peaks"
	cs_check_ok "round_robin=0"
	echo 1 >$CS/round_robin
	cs_set 0
	cs_unload
}
