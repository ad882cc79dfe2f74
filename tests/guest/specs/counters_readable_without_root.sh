# /sys/kernel/clusterswap/stats/ holds the allocator's main counters, one
# value per file, mode 0444: a user without any privilege reads them, and
# each equals its debugfs "stats" line.  Nobody, root included, can write
# them.  A counter the line does not have (6.1: stock_final_free,
# idle_reclaimed) has no file, and its debugfs line says "none" and why.
# Budget: 17 s on 6.12, 17 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 10.6x the slowest.
TIMEOUT_counters_readable_without_root=180
COUNTERS="alloc=alloc.total alloc_fast=alloc.fast alloc_slow=alloc.slow
stock_fallback=alloc.stock_fallback large_fallback=large_fallback.order*
freed=freed stock_final_free=freed.stock_final_free
zswap_invalidate=zswap_invalidate si_lock_alloc=si_lock.alloc
si_lock_free=si_lock.free list_moves=list_moves idle_reclaimed=reclaim.idle_cache"

# debugfs_sum PATTERN: the sum of the debugfs stats whose names match.
debugfs_sum() {
	awk -v p="^$(echo "$1" | sed 's/\./\\./g; s/\*/.*/')\$" '$1 ~ p {s += $2} END {print s + 0}' "$CSD/stats"
}

test_counters_readable_without_root() {
	zram_swap 0 1G
	cs_load
	cs_set 1
	memcg counters 64
	in_memcg counters $BIN/verifier -t 2 -m 128 -p 2 -s 93
	verifier_ok $? "before reading the counters"
	cs_set 0
	want=0
	line=
	for pair in $COUNTERS; do
		f=${pair%%=*}
		key=${pair#*=}
		if [ "$(awk -v k="$key" '$1 == k {print $2}' "$CSD/stats")" = none ]; then
			[ ! -e "$CS/stats/$f" ] || fail "$CS/stats/$f exists, debugfs says $key none"
			line="$line $f=none"
			continue
		fi
		want=$((want + 1))
		[ -f "$CS/stats/$f" ] || fail "no $CS/stats/$f"
		[ "$(stat -c %a "$CS/stats/$f")" = 444 ] || fail "$CS/stats/$f has mode $(stat -c %a "$CS/stats/$f"), want 444"
		v=$(setpriv --reuid=65534 --regid=65534 --clear-groups cat "$CS/stats/$f") ||
			fail "user 65534 cannot read $CS/stats/$f"
		case $v in '' | *[!0-9]*) fail "$CS/stats/$f reads '$v', not a number" ;; esac
		d=$(debugfs_sum "$key")
		[ "$v" = "$d" ] || fail "$CS/stats/$f reads $v, debugfs $key $d"
		if echo 0 2>/dev/null >"$CS/stats/$f"; then
			fail "root could write $CS/stats/$f"
		fi
		line="$line $f=$v"
	done
	[ "$(ls "$CS/stats" | wc -l)" = $want ] || fail "$CS/stats has $(ls "$CS/stats" | wc -l) files, want $want: $(ls "$CS/stats" | tr '\n' ' ')"
	note "read as user 65534:$line"
	[ "$(cat "$CS/stats/alloc")" -gt 0 ] || fail "no allocation was counted"
	cs_unload
}
