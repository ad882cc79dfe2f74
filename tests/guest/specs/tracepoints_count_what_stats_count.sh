# The module's tracepoints (events/clusterswap/ in tracefs) fire where its
# counters move.  With every event on while threads swap through zram, the
# switch flips, a rotational device comes first for a while and both devices
# are swapped off, the trace holds as many cluster_move events as list_moves
# moved, as many stock_fallback (why=rotational among them) and
# large_refused events as their counters, each switch flip with its
# direction, and one swapoff_fence, for zram0.  The pages verify.
# Budget: 32 s on 6.12, 33 s on 6.1 (make check, 2-vCPU TCG on a 2-core
# host); the limit is 7.3x the slowest.
TIMEOUT_tracepoints_count_what_stats_count=240
NEEDS_tracepoints_count_what_stats_count=allocator
T=/sys/kernel/tracing

# quiet STAT...: wait until those debugfs stats stop moving (the same two
# readings 1 s apart, up to 10 s).
quiet() {
	_prev=
	_i=0
	while [ $_i -lt 10 ]; do
		_now=
		for _k in "$@"; do _now="$_now $(cs_stat "$_k")"; done
		[ "$_now" = "$_prev" ] && return 0
		_prev=$_now
		sleep 1
		_i=$((_i + 1))
	done
	fail "$* kept moving"
}

large_fallbacks() {
	awk '$1 ~ /^large_fallback\.order/ {s += $2} END {print s + 0}' "$CSD/stats"
}

# events NAME: how many NAME events the trace holds.
events() {
	grep -c " $1: " /tmp/trace.txt
}

test_tracepoints_count_what_stats_count() {
	[ -d $T/events ] || fail "no tracefs at $T"
	zram_swap 0 1G
	cs_load
	[ -d $T/events/clusterswap ] || fail "no events/clusterswap in tracefs"
	note "events: $(ls $T/events/clusterswap | grep -v '^enable$\|^filter$' | tr '\n' ' ')"
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 16384 >$T/buffer_size_kb
	echo 1 >$T/events/clusterswap/enable || fail "cannot enable the clusterswap events"
	memcg trace 64
	quiet list_moves freed
	moves0=$(cs_stat list_moves); fb0=$(cs_stat alloc.stock_fallback); lf0=$(large_fallbacks)
	echo 1 >$T/tracing_on
	cs_set 1
	cs_set 0
	cs_set 1
	in_memcg trace $BIN/verifier -t 4 -m 128 -p 2 -s 91
	verifier_ok $? "with every clusterswap event on"
	# A rotational device ahead of zram: the module hands those calls to
	# stock code (stock_fallback, why=rotational).
	modprobe loop 2>/dev/null
	truncate -s 32M /tmp/rot.img
	loopdev=$(losetup -f --show /tmp/rot.img) || fail "losetup"
	echo 1 >"/sys/block/${loopdev#/dev/}/queue/rotational"
	mkswap "$loopdev" >/dev/null && swapon -p 10 "$loopdev" || fail "swapon $loopdev"
	in_memcg trace $BIN/verifier -t 2 -m 96 -p 2 -s 92
	verifier_ok $? "with a rotational device first"
	swapoff "$loopdev" || fail "swapoff $loopdev"
	losetup -d "$loopdev"
	rm -f /tmp/rot.img
	# Switch-on's take-over (a work item) drains the slot cache through
	# disable_swap_slots_cache_lock(), which swapoff calls too: were it to
	# run during the swapoff, the device would be fenced twice (harmless,
	# two events).  Let it finish first.
	quiet calls.disable_swap_slots_cache_lock
	swapoff /dev/zram0 || fail "swapoff with the events on"
	wait_for "$CSD/devices/zram0" absent
	quiet list_moves freed
	echo 0 >$T/tracing_on
	moves=$(( $(cs_stat list_moves) - moves0 ))
	fb=$(( $(cs_stat alloc.stock_fallback) - fb0 ))
	lf=$(( $(large_fallbacks) - lf0 ))
	echo 0 >$T/events/clusterswap/enable
	cat $T/trace >/tmp/trace.txt
	for s in $T/per_cpu/cpu*/stats; do
		awk '$1 == "overrun:" && $2 != 0 {bad = 1} $1 == "dropped" && $3 != 0 {bad = 1} END {exit bad}' "$s" ||
			fail "the trace buffer lost events ($s: $(tr '\n' ' ' <"$s"))"
	done
	note "trace: $(events cluster_take) cluster_take, $(events cluster_move) cluster_move, $(events stock_fallback) stock_fallback, $(events large_refused) large_refused, $(events switch_flip) switch_flip, $(events swapoff_fence) swapoff_fence"
	note "stats: list_moves +$moves, alloc.stock_fallback +$fb, large_fallback +$lf"
	grep -m 1 ' cluster_take: ' /tmp/trace.txt | sed 's/^ */  e.g. /'
	grep -m 1 ' cluster_move: ' /tmp/trace.txt | sed 's/^ */  e.g. /'
	[ "$moves" -gt 0 ] || fail "no cluster changed lists"
	[ "$(events cluster_move)" = "$moves" ] || fail "$(events cluster_move) cluster_move events, list_moves moved $moves"
	[ "$fb" -gt 0 ] || fail "no call went to stock code with a rotational device first"
	[ "$(events stock_fallback)" = "$fb" ] || fail "$(events stock_fallback) stock_fallback events, the counter moved $fb"
	grep -q ' stock_fallback: order=0 why=rotational' /tmp/trace.txt || fail "no stock_fallback event says why=rotational"
	[ "$(events large_refused)" = "$lf" ] || fail "$(events large_refused) large_refused events, the counters moved $lf"
	[ "$(events cluster_take)" -gt 0 ] || fail "no cluster_take event"
	flips=$(sed -n 's/.* switch_flip: //p' /tmp/trace.txt | tr '\n' ' ')
	[ "$flips" = "on off on " ] || fail "switch_flip events read '$flips', want 'on off on '"
	# Two swapoffs: the loop device (type 1; stock serves it: no cluster
	# list) and zram0 (type 0).
	[ "$(events swapoff_fence)" = 1 ] || fail "$(events swapoff_fence) swapoff_fence events for one swapoff of a device with clusters"
	grep -q ' swapoff_fence: type=0 ' /tmp/trace.txt || fail "the swapoff_fence event is not for zram0 (type 0)"
	if grep ' cluster_take: \| cluster_move: ' /tmp/trace.txt | grep -qv ' type=0 '; then
		fail "a cluster event names a device other than zram0 (type 0)"
	fi
	echo 1408 >$T/buffer_size_kb
	cs_unload
}
