# Helpers for the in-VM tests (sourced by runner.sh; POSIX sh).
#
# A test is a file specs/NAME.sh defining test_NAME, and optionally TIMEOUT_NAME
# (seconds).  It runs in its own shell: fail() ends it with a reason.

CS=/sys/kernel/clusterswap
CSD=/sys/kernel/debug/clusterswap
KO=/job/clusterswap.ko
BIN=/job/bin
CG=/sys/fs/cgroup

# A kernel log line that fails the test it appears in (runner.sh) or names
# why a guest died (vm/suite.sh reads this line from here).  A test that
# provokes one on purpose names it in ALLOW_LOG_<test> (an extended regular
# expression); every other such line still fails it.  "kernel BUG at" is
# a BUG_ON's own line, with its file and line, before the Oops it causes.
BAD_LOG='WARNING:|BUG:|kernel BUG at|Oops|list_[a-z]* corruption|general protection fault|soft lockup|hard LOCKUP|rcu_sched self-detected|rcu: INFO|detected stall|INFO: task .* blocked|Kernel panic|UBSAN|KASAN|clusterswap: internal inconsistency|clusterswap: tripped'

fail() {
	echo "FAIL: $*"
	exit 1
}

note() {
	echo "  $*"
}

# On arm64, until the suite has run on arm64 hardware, the module loads
# only when asked to (kernel_gate.c): every load of the suite asks.
ARCH_OPT=
[ "$(uname -m)" = aarch64 ] && ARCH_OPT=arm64_unverified=1

cs_load() {
	insmod "$KO" $ARCH_OPT "$@" || fail "insmod $KO $* failed"
}

cs_unload() {
	rmmod clusterswap || fail "rmmod clusterswap failed"
	[ ! -e "$CS" ] || fail "$CS still exists after rmmod"
}

cs_set() {
	echo "$1" >"$CS/enabled" || fail "cannot write $1 to $CS/enabled"
	[ "$(cat "$CS/enabled")" = "$1" ] || fail "enabled reads $(cat "$CS/enabled") after writing $1"
}

# cs_wait_serving: after cs_set 1, wait until the module allocates slots
# itself.  On 6.1 the switch's take-over finishes in a work item after an
# RCU-tasks grace period (6.1/serve.c), and until then stock serves each
# allocation (alloc.stock_fallback); on 6.12 the module allocates at once.
# Pages out 1 MiB a page at a time (1 MiB of swap free) until the module
# has made an allocation, for at most 20 s.
cs_wait_serving() {
	_a0=$(cs_stat alloc.order0)
	[ "$_a0" != missing ] || fail "no alloc.order0 in $CSD/stats"
	_end=$(($(date +%s) + 20))
	while [ "$(cs_stat alloc.order0)" = "$_a0" ]; do
		[ "$(date +%s)" -lt "$_end" ] || fail "the module made no allocation 20 s after the switch went on"
		_out=$($BIN/pageout -1 -m 1 -s 1) ||
			fail "pageout -1 -m 1 failed (exit $?) while waiting for the take-over: $_out"
	done
}

# cs_stat KEY: a value from debugfs stats.
cs_stat() {
	awk -v k="$1" '$1 == k {print $2; found=1} END {if (!found) print "missing"}' "$CSD/stats"
}

# cs_frees: all calls seen on the redirected free paths.
cs_frees() {
	awk '$1 ~ /^calls\.(free_swap_slot|put_swap_folio|free_swap_and_cache(_nr)?|swapcache_free_entries)$/ {s += $2} END {print s + 0}' "$CSD/stats"
}

vmstat() {
	awk -v k="$1" '$1 == k {print $2}' /proc/vmstat
}

# zram_swap N SIZE [PRIO]: zram device N of SIZE as swap.
zram_swap() {
	[ -e /sys/block/zram0 ] || modprobe zram num_devices=4 || fail "modprobe zram"
	echo "$2" >"/sys/block/zram$1/disksize" || fail "zram$1 disksize"
	mkswap "/dev/zram$1" >/dev/null || fail "mkswap zram$1"
	swapon ${3:+-p "$3"} "/dev/zram$1" || fail "swapon zram$1"
}

# virtio_disk: the test's virtio disk (DISK_<test>) as /dev/vda.
virtio_disk() {
	[ -b /dev/vda ] || modprobe virtio_blk  # built in on the debug kernel
	_i=0
	while [ ! -b /dev/vda ] && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ -b /dev/vda ] || fail "no /dev/vda"
}

swap_clear() {
	swapoff -a
	for z in /sys/block/zram*; do
		[ -e "$z/reset" ] && echo 1 >"$z/reset" 2>/dev/null
	done
	return 0
}

# memcg_controller_on: children of the root cgroup get the memory controller.
memcg_controller_on() {
	grep -q memory "$CG/cgroup.subtree_control" || echo +memory >"$CG/cgroup.subtree_control"
}

# memcg NAME MIB: a memory cgroup that reclaims (swaps) above MIB MiB.
# memory.high throttles and reclaims; memory.max, half as much again, is the
# hard stop.  With memory.max alone, stock 6.12 (MGLRU) was seen to OOM-kill
# at the very first reclaim, with nothing yet in swap.
memcg() {
	memcg_controller_on
	mkdir -p "$CG/$1" &&
		echo "$(($2 * 3 / 2))M" >"$CG/$1/memory.max" &&
		echo "${2}M" >"$CG/$1/memory.high" || fail "memcg $1"
}

# memcg_max_mib NAME: the hard limit of memory cgroup NAME, in MiB.
memcg_max_mib() {
	echo $(( $(cat "$CG/$1/memory.max") >> 20 ))
}

# verifier_ok STATUS WHAT: fail with the reason the verifier exited STATUS.
verifier_ok() {
	case $1 in
	0) return 0 ;;
	1) fail "verifier found bad pages $2" ;;
	137) fail "verifier was killed $2 (memcg OOM? see the kernel log)" ;;
	*) fail "verifier failed (exit $1) $2" ;;
	esac
}

# in_memcg NAME CMD...: run CMD inside memory cgroup NAME.
in_memcg() {
	_cg=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG/$_cg" "$@"
}

# in_memcg_bg NAME CMD...: start CMD in memory cgroup NAME in the background;
# $bg_pid is CMD's own pid (so that it can be signalled).
in_memcg_bg() {
	_cg=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG/$_cg" "$@" &
	bg_pid=$!
}

memcg_clear() {
	for d in "$CG"/*/*/ "$CG"/*/; do
		[ -f "$d/memory.max" ] && rmdir "$d" 2>/dev/null
	done
	return 0
}

# cs_check_ok: debugfs check must read "ok" for every swap device.
cs_check_ok() {
	_out=$(cat "$CSD/check") || fail "cannot read $CSD/check"
	[ "$_out" = ok ] || fail "check after $1: $(echo "$_out" | head -n 5 | tr '\n' ';')"
	note "check after $1: ok"
}

# wait_for PATH [present|absent]: debugfs device directories follow swapon and
# swapoff through a work item; give it up to 5 s.
wait_for() {
	_i=0
	while [ $_i -lt 50 ]; do
		if [ "${2:-present}" = present ]; then [ -e "$1" ] && return 0
		else [ ! -e "$1" ] && return 0
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	fail "$1 is not ${2:-present} after 5 s"
}

# cs_line: the kernel line the module recognised, "6.12" or "6.1".
cs_line() {
	sed -n 's/.*(\([0-9.]*\) line).*/\1/p' "$CS/kernel"
}

# cs_stats_note KEY...: print those debugfs stats on one line.
cs_stats_note() {
	_line=
	for _k in "$@"; do
		_line="$_line $_k=$(cs_stat "$_k")"
	done
	note "stats:$_line"
}

# swap_used DEV / swap_size DEV: /proc/swaps columns, in KiB.
# summary_value KEY: the value of line KEY of device 0's debugfs summary.
summary_value() {
	awk -v k="$1" '$1 == k {print $2}' "$CSD/devices/0/summary"
}

swap_used() {
	awk -v d="$1" '$1 == d {print $4}' /proc/swaps
}

# zram_pages N: the pages zram device N stores (its mm_stat's first field,
# the bytes stored before compression), mkswap's header page among them.
# Unlike /proc/swaps' Used, it counts no slot a CPU took as credit and has
# not filled yet.
zram_pages() {
	awk '{printf "%d\n", $1 / 4096}' "/sys/block/zram$1/mm_stat"
}

# pageout_held MIB SEED WAIT SECONDS OUT: start pageout on MIB MiB, pages
# that find no slot staying resident (-a), holding its pages WAIT seconds
# before it verifies them (SIGUSR1 ends the wait sooner); return once it has
# paged out (its output in OUT), failing after SECONDS.  $held_pid is its pid,
# for the caller to signal and wait on.
pageout_held() {
	$BIN/pageout -m "$1" -a -w "$3" -s "$2" >"$5" &
	held_pid=$!
	_i=0
	while ! grep -q "paged out" "$5" && [ $_i -lt $(($4 * 10)) ]; do sleep 0.1; _i=$((_i + 1)); done
	grep -q "paged out" "$5" || fail "pageout did not page out within $4 s"
}

# running PID: PID is alive (a child that exited but was not yet waited for
# is a zombie, which "kill -0" still finds).
running() {
	! grep -qs '^State:[[:space:]]*Z' "/proc/$1/status" && [ -e "/proc/$1" ]
}

# swap_peaks PID DEV...: the most KiB each DEV had in use while PID ran
# (sampled each second: process starts are dear under emulation).
swap_peaks() {
	_pid=$1
	shift
	: >/tmp/swaps.samples
	while running "$_pid"; do
		cat /proc/swaps >>/tmp/swaps.samples
		sleep 1
	done
	for _d in "$@"; do
		awk -v d="$_d" '$1 == d && $4 > m {m = $4} END {printf "%d ", m}' /tmp/swaps.samples
	done
	echo
}

swap_size() {
	awk -v d="$1" '$1 == d {print $3}' /proc/swaps
}

# thp_stat SIZE KEY: a per-size mTHP counter, e.g. thp_stat 64kB swpout.
thp_stat() {
	cat "/sys/kernel/mm/transparent_hugepage/hugepages-$1/stats/$2" 2>/dev/null || echo 0
}

# mthp64 always|never: set 64 KiB mTHP where the kernel has it (6.12); on a
# kernel without mTHP (6.1) returns 1, and "always" notes that only order 0
# and PMD THP run.
mthp64() {
	if ! [ -d /sys/kernel/mm/transparent_hugepage/hugepages-64kB ]; then
		[ "$1" = never ] || note "64 KiB mTHP: this kernel has none (order 0 and PMD THP only)"
		return 1
	fi
	echo "$1" >/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled ||
		fail "cannot set 64kB mTHP to $1"
}

# flip_start SECONDS FLIPS: flip the switch every 100 ms (flipper) for
# SECONDS, and on until FLIPS flips, but for no more than 5 x SECONDS in all;
# it ends on 0, in the background ($flip_pid).  flip_end waits for it, fails
# if a write did not take or FLIPS were not made, and sets $flips and
# $flip_slowest_ms.  flip_for SECONDS FLIPS does both.  At 100 ms each state
# still sees hundreds of allocations under the tests' loads (about a thousand
# a second even at -smp 8).  A write waits for the calls in flight, so a slow
# guest (a debug kernel) makes fewer flips a second: it flips for longer, and
# its load must run until the flips end (verifier -d well past SECONDS, then
# SIGUSR1).
flip_start() {
	flip_want=$2
	$BIN/flipper -i 100 -d "$1" -n "$2" -l $(($1 * 5)) >/tmp/flipper.log 2>&1 &
	flip_pid=$!
}

flip_end() {
	wait $flip_pid || fail "flipper: $(cat /tmp/flipper.log)"
	flips=$(sed -n 's/.*flips=\([0-9]*\).*/\1/p' /tmp/flipper.log)
	flip_slowest_ms=$(sed -n 's/.*slowest_write_ms=\([0-9]*\).*/\1/p' /tmp/flipper.log)
	flip_seconds=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' /tmp/flipper.log)
	[ "$flips" -ge "$flip_want" ] ||
		fail "only $flips flips in $flip_seconds s (slowest write $flip_slowest_ms ms), want $flip_want"
}

flip_for() {
	flip_start "$1" "$2"
	flip_end
}

# compiler_cache_zero / compiler_cache_note: the guest's module builds go
# through the host's compiler cache when pid1.sh mounted one (make check keeps
# it warm); say how many compiler runs it answered.
compiler_cache_zero() {
	[ -n "${CCACHE_DIR:-}" ] && ccache -z >/dev/null 2>&1
	return 0
}
compiler_cache_note() {
	[ -n "${CCACHE_DIR:-}" ] || { note "compiler cache: none (every object compiled)"; return 0; }
	ccache --print-stats 2>/dev/null | awk '
		$1 ~ /_cache_hit$/ { hit += $2 } $1 == "cache_miss" { miss += $2 }
		END { printf "  compiler cache: %d objects from the cache, %d compiled\n", hit, miss }'
}

# holes_start SEED [MIB]: swap filled by MIB MiB (default 96), then every
# other page freed; $holes_pid keeps the rest until holes_end.
holes_start() {
	$BIN/holes -m "${2:-96}" -s "$1" >/tmp/holes.out &
	holes_pid=$!
	i=0
	while ! grep -q ready /tmp/holes.out && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q ready /tmp/holes.out || fail "holes did not get ready in 60 s"
	note "$(cat /tmp/holes.out); zram0 used $(swap_used /dev/zram0) of $(swap_size /dev/zram0) KiB"
}

holes_end() {
	kill -USR1 "$holes_pid"
	wait "$holes_pid"
	rc=$?
	note "$(tail -n 1 /tmp/holes.out)"
	[ "$rc" = 0 ] || fail "the pages kept in swap are not intact ($1)"
}

# kprobes_on GROUP FUNC...: a kprobe on each stock FUNC, in the trace event
# group GROUP, enabled (the stock figures that the module's counters are set
# beside).  Fails with the function it could not probe.
kprobes_on() {
	_g=$1
	shift
	for _f in "$@"; do
		echo "p:$_g/$_f $_f" >>/sys/kernel/tracing/kprobe_events || {
			echo "cannot put a kprobe on $_f"
			return 1
		}
	done
	echo 1 >"/sys/kernel/tracing/events/$_g/enable"
}

# kprobes_stop GROUP: stop counting (the hits stay readable).
kprobes_stop() {
	echo 0 >"/sys/kernel/tracing/events/$1/enable"
}

# kprobes_off GROUP FUNC...: remove the kprobes kprobes_on put.
kprobes_off() {
	_g=$1
	shift
	for _f in "$@"; do
		echo "-:$_g/$_f" >>/sys/kernel/tracing/kprobe_events
	done
}

# kprobe_hits GROUP FUNC: how often the kprobe on FUNC fired (kprobe_profile
# names it GROUP/FUNC or FUNC, by kernel).
kprobe_hits() {
	awk -v e="$1/$2" -v f="$2" '$1 == e || $1 == f {print $2}' /sys/kernel/tracing/kprobe_profile
}

# packaged_module_serves: the packaged module, loaded and switched on, swaps
# pages out and back intact through zram, and the packaged clusterswap-top
# shows the device; the module is then unloaded.
packaged_module_serves() {
	zram_swap 0 512M
	memcg deb 64
	in_memcg deb $BIN/verifier -t 2 -m 128 -p 2 -s 61
	verifier_ok $? "with the packaged module"
	cs_check_ok "the packaged module"
	clusterswap-top --once -d 0.5 >/tmp/top.txt 2>&1 || fail "the packaged clusterswap-top: $(cat /tmp/top.txt)"
	grep -q " /dev/zram0 " /tmp/top.txt || fail "the packaged clusterswap-top does not show zram0: $(cat /tmp/top.txt)"
	note "packaged $(command -v clusterswap-top) shows zram0"
	modprobe -r clusterswap || fail "modprobe -r clusterswap"
}

# packaged_purge_leaves_nothing: "apt purge" removes the package and leaves
# none of its files, and no module, behind.
packaged_purge_leaves_nothing() {
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q clusterswap-dkms >/tmp/apt.log 2>&1 ||
		{ tail -n 40 /tmp/apt.log; fail "apt purge"; }
	_left=$(ls -d /usr/src/clusterswap-* /var/lib/dkms/clusterswap /usr/share/doc/clusterswap-dkms \
		/usr/sbin/clusterswap-top 2>/dev/null;
		find /lib/modules -name 'clusterswap.ko*')
	[ -z "$_left" ] || fail "apt purge left: $_left"
	dpkg -s clusterswap-dkms >/dev/null 2>&1 && fail "dpkg still knows clusterswap-dkms after purge"
	note "purged: nothing left"
}
