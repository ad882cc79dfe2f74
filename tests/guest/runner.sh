# The in-VM suite runner: /job/run.sh.  Runs each test named in /job/tests,
# each in its own shell under a time limit, and writes one line per test to
# /job/out/results: "PASS name" or "FAIL name: reason".
#
# Besides its own checks, a test fails when, during it, the kernel log shows a
# warning, a BUG, an oops, a lockup or an RCU stall, or the kernel taint gains
# a bit other than O (out-of-tree module) and E (unsigned module).  On a
# kernel with lockdep, a test also fails if lockdep turned itself off during
# it (it does after its first report, and would then watch nothing more).
cd /job || exit 1
. /job/lib.sh
ALLOWED_TAINT=$((4096 | 8192))
# A debug kernel runs slower: the host scales every limit (time_scale).
scale=$(cat /job/time_scale 2>/dev/null || echo 1)

results=/job/out/results
: >"$results"

# The first memory cgroup switches static keys on for good
# (memcg_kmem_online_key: kmalloc and kfree are patched).  A system with
# systemd creates memory cgroups at boot; so does this, while the guest is
# idle, so no test's first cgroup patches kernel text under it (under QEMU
# 7.2 such patching once killed a guest: tests/vm/emulator.sh).
memcg_controller_on
mkdir "$CG/cs-boot" && rmdir "$CG/cs-boot"
echo 1 >/proc/sys/kernel/sysrq

# debug_locks: 1 while lockdep is watching; no lockdep, no line.
lockdep_on() {
	sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats 2>/dev/null
}
[ -n "$(lockdep_on)" ] && echo "lockdep: debug_locks $(lockdep_on), $(sed -n 's/^ *lock-classes: *//p' /proc/lockdep_stats) lock classes at the start"

limit_arch=TIMEOUT
[ "$(uname -m)" = aarch64 ] && limit_arch=TIMEOUT_ARM64
for name in $(cat /job/tests); do
	lockdep_before=$(lockdep_on)
	# An arm64 guest's own limit where a test has one, else its limit.
	timeout=$(sh -c ". /job/lib.sh; . /job/specs/$name.sh; echo \${${limit_arch}_$name:-\${TIMEOUT_$name:-120}}")
	timeout=$((timeout * scale))
	taint_before=$(cat /proc/sys/kernel/tainted)
	dmesg -C
	echo "=== $name (limit ${timeout}s)"
	start=$(date +%s)
	# timeout runs in a process group of its own, with everything the test
	# started: whatever a failed test left running (a load, held pages) is
	# killed with it, so that it cannot fail the tests after it.
	timeout -k 10 "$timeout" sh -c ". /job/lib.sh; . /job/specs/$name.sh; test_$name" >"/job/out/$name.log" 2>&1 &
	test_pid=$!
	# A test still running at 7/8 of its limit may be stuck rather than
	# slow: the blocked tasks and every CPU's backtrace go to the kernel
	# log, which the test's dmesg keeps.
	sh -c "sleep $((timeout - timeout / 8)); echo '=== $name: still running at 7/8 of its limit: blocked tasks and CPU backtraces in its dmesg'; echo w >/proc/sysrq-trigger; echo l >/proc/sysrq-trigger" &
	watch_pid=$!
	wait $test_pid
	rc=$?
	kill $watch_pid 2>/dev/null
	pkill -KILL -g $test_pid 2>/dev/null
	cat "/job/out/$name.log"
	dmesg >"/job/out/$name.dmesg"
	reason=
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		reason="timed out after ${timeout}s"
	elif [ $rc != 0 ]; then
		reason=$(grep '^FAIL: ' "/job/out/$name.log" | head -n 1 | cut -c7-)
		[ -n "$reason" ] || reason="exit status $rc"
	fi
	allow=$(sh -c ". /job/lib.sh; . /job/specs/$name.sh; echo \"\${ALLOW_LOG_$name:-}\"")
	bad=$(grep -E "$BAD_LOG" "/job/out/$name.dmesg" | { if [ -n "$allow" ]; then grep -vE "$allow"; else cat; fi; } | head -n 3)
	[ -z "$reason" ] && [ -n "$bad" ] && reason="kernel log: $(echo "$bad" | head -n 1)"
	taint_new=$(( $(cat /proc/sys/kernel/tainted) & ~taint_before & ~ALLOWED_TAINT ))
	[ -z "$reason" ] && [ $taint_new != 0 ] && reason="kernel taint gained bits $taint_new"
	[ -z "$reason" ] && [ "$lockdep_before" = 1 ] && [ "$(lockdep_on)" != 1 ] &&
		reason="lockdep turned itself off (debug_locks $(lockdep_on)): it reported something"
	if [ -n "$reason" ]; then
		echo "FAIL $name: $reason" >>"$results"
		echo "--- $name: dmesg tail"
		tail -n 40 "/job/out/$name.dmesg"
	else
		echo "PASS $name" >>"$results"
	fi
	used=$(( $(date +%s) - start ))
	echo "=== $name: $(tail -n 1 "$results") (${used}s)"
	echo "$name $used $timeout" >>/job/out/times
	[ "$lockdep_before" = 1 ] && echo "=== $name: lockdep debug_locks $(lockdep_on)"
	# Leave the next test a clean machine.
	[ -e "$CS" ] && rmmod clusterswap
	swap_clear
	memcg_clear
done
