#!/bin/bash
# make check / make check-host.
#
#   check.sh all     host checks, then the in-VM suite on every target kernel
#   check.sh host    host checks only: build for every kernel of each build
#                    root, the IBT check, the build-time gate, checkpatch
#
# Environment:
#   KERNELS="6.12 6.1 6.12-deb12 6.12-cloud 6.1-cloud 6.12-arm64"
#                          kernels to test (default: all six; tests/vm/targets.sh:
#                          6.12-deb12 is Debian 12's opt-in 6.12, the -cloud ones
#                          the cloud flavour of each line, a smoke set each;
#                          6.12-arm64 and 6.1-arm64, Debian 13's and 12's arm64
#                          kernels in an emulated arm64 guest: 6.12-arm64's
#                          smoke set by default, the whole suite when named;
#                          6.1-arm64, 6.12-cloud-arm64 and 6.1-cloud-arm64,
#                          when named, the last two a smoke set each)
#   TESTS="a b ..."        in-VM tests to run (default: all tests/guest/specs/*.sh)
#   CLUSTERSWAP_CACHE      where build roots and outputs live (~/.cache/clusterswap)
#   CHECK_LANES=N          how many lanes of guests run side by side (default:
#                          one for every 2 idle cores, at most 3: check_lanes)
#   CHECK_BUNDLE=0         leave out the bench bundle's test
#   CHECK_START_BY=MIN     a part of the in-VM suite (a kernel's tests, the
#                          bench bundle) not begun MIN minutes into the run
#                          is not begun: its tests are skipped, each named
#                          with the reason (.ci/run: CI stops a run at 90)
#
# On a fresh Debian 12 machine, as root, it installs what it needs.  Ends with
# one line "N passed, N failed, N skipped" (each skip named above it, with
# its reason); exits non-zero if anything failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-all}
# An arm64 target in the default list runs its smoke set (targets.sh).
[ -n "${KERNELS:-}" ] || export CHECK_DEFAULT_KERNELS=1
KERNELS=${KERNELS:-6.12 6.1 6.12-deb12 6.12-cloud 6.1-cloud 6.12-arm64}
export CLUSTERSWAP_CACHE=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
passed=0
failed=0
skipped=0
failures=
skips=
retries=
near=
times=
t0=$(date +%s)

result() {
	echo "$1"
	case $1 in
	PASS*) passed=$((passed + 1)) ;;
	SKIP*) skipped=$((skipped + 1)); skips="$skips
  ${1#SKIP }" ;;
	*) failed=$((failed + 1)); failures="$failures
  $1" ;;
	esac
}

# mmss SECONDS: "M min S s".
mmss() {
	echo "$(($1 / 60)) min $(($1 % 60)) s"
}

section() {
	echo
	echo "##### $* ($(( $(date +%s) - t0 ))s)"
}

. "$top/tests/vm/targets.sh"

# Each part's output and times, while the parts run side by side.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# A command started with & ignores SIGINT: on an interrupt, stop the parts
# running in the background too (each suite's guest ends at its time limit).
trap 'trap "" TERM; trap - INT; kill -TERM 0 2>/dev/null; exit 130' INT TERM

# check_lanes: how many lanes of guests run side by side (CHECK_LANES=N
# names the count).  Each guest is emulated on as many host threads as it
# has vCPUs (2, and 8 for the -smp 8 test for a few minutes), and a guest
# whose host cores are busy slows down far more than the work it shares
# them with (the suite's time limits are set for a guest that has its
# cores): a lane for every 2 cores that were idle when the run began (the
# load then is other work's), one on a 2-core host, at most 3 (the parts
# below cannot be split over more).
check_lanes() {
	local idle n
	if [ -n "${CHECK_LANES:-}" ]; then
		case $CHECK_LANES in
		[1-3]) echo "$CHECK_LANES"; return 0 ;;
		*) echo "check: CHECK_LANES='$CHECK_LANES': give a count from 1 to 3" >&2; return 1 ;;
		esac
	fi
	idle=$(awk -v n="$(nproc)" '{ i = n - int($1 + 0.5); print (i < 0 ? 0 : i) }' /proc/loadavg)
	n=$((idle / 2))
	[ "$n" -ge 1 ] || n=1
	[ "$n" -le 3 ] || n=3
	echo "$n"
}

# plan_lanes N UNIT...: the units (a target's suite, or "bundle") of each
# of N lanes, one line per lane, each lane's in the order given.  The bench
# bundle builds in the trixie root and fetches perf into it, while the
# trixie suite boots overlays over that root: the two share a lane.  So do
# the targets of one build root (a line's generic and cloud kernels): the
# host installs into an overlay of the root per test (root-installed.sh).
plan_lanes() {
	local n=$1 u r next=1 i
	local -a lane
	local -A lane_of
	shift
	lane_of[trixie]=0
	for u in "$@"; do
		r=bundle
		[ "$u" = bundle ] || r=$(target_root "$u")
		[ "$r" = bundle ] && r=trixie
		if [ "$n" = 1 ]; then
			i=0
		elif [ -n "${lane_of[$r]:-}" ]; then
			i=${lane_of[$r]}
		else
			i=$next
			lane_of[$r]=$i
			next=$((next % (n - 1) + 1))
		fi
		lane[i]="${lane[i]:-} $u"
	done
	printf '%s\n' "${lane[@]}"
}

# too_late: whether CHECK_START_BY minutes of the run have gone by.
too_late() {
	[ -n "${CHECK_START_BY:-}" ] && [ $(( $(date +%s) - t0 )) -ge $((CHECK_START_BY * 60)) ]
}

# skip_unit UNIT [LIST [WHY]]: a SKIP line for each of its tests (those
# in $logs/UNIT.LIST, default tests), named as its suite would name them.
skip_unit() {
	local why=${3:-"not begun: CHECK_START_BY=$CHECK_START_BY minutes had gone by (a run without it runs it)"}
	local label t
	if [ "$1" = bundle ]; then
		echo "SKIP host/bench_bundle_runs_from_a_fresh_folder_without_qemu: $why"
		return
	fi
	label=$(unit_label "$1")
	for t in $(cat "$logs/$1.${2:-tests}"); do
		echo "SKIP $label/$t: $why"
	done
}

# unit_label UNIT: how its suite names its tests (6.12-arm64/...); an
# arm64 root not made has no kernel to name, and the target names them.
unit_label() {
	local kver
	if kver=$(root_kernel "$CLUSTERSWAP_CACHE/roots/$(target_root "$1")" "$(target_flavour "$1")" 2>/dev/null); then
		target_label "$1" "$kver"
	else
		echo "$1"
	fi
}

# mark NAME VALUE: $logs/NAME holds VALUE, whole when it is first seen.
mark() {
	echo "$2" >"$logs/$1.new" && mv "$logs/$1.new" "$logs/$1"
}

# wait_for NAME: wait until $logs/NAME is marked, or CHECK_START_BY's
# minutes have gone by; whether it was marked.
wait_for() {
	while [ ! -s "$logs/$1" ] && ! too_late; do sleep 5; done
	[ -s "$logs/$1" ]
}

# root_ready UNIT: wait until the root an arm64 unit boots is made
# (arm64_prep), or CHECK_START_BY's minutes have gone by; whether it was
# made.  Any other unit's root was made before the guests began.
root_ready() {
	[ "$1" != bundle ] && [ "$(target_arch "$1")" = arm64 ] || return 0
	wait_for "prep-$(target_root "$1").root" &&
		[ "$(cat "$logs/prep-$(target_root "$1").root")" = 0 ]
}

# fail_unit UNIT [LIST]: a FAIL line for each of its tests (those in
# $logs/UNIT.LIST, default tests), whose root was not made.
fail_unit() {
	local r t label
	r=$(target_root "$1")
	label=$(unit_label "$1")
	for t in $(cat "$logs/$1.${2:-tests}"); do
		echo "FAIL $label/$t: not run: its root $r was not made (root/$r)"
	done
}

# unit_time UNIT: how long an ended unit ran, "M min S s".
unit_time() {
	mmss $(( $(cat "$logs/$1.end") - $(cat "$logs/$1.start") ))
}

# progress: one line with the time of every part that has ended, printed as
# each ends: a run stopped from outside (CI's limit) shows in its last
# lines where its time went, whichever lane the parts ran in.
progress() {
	local u line=
	for u in $units; do
		[ -s "$logs/$u.end" ] || continue
		line="$line; $(unit_name "$u"): $(unit_time "$u")"
	done
	echo "check: after $(mmss $(( $(date +%s) - t0 ))): host checks $(mmss $(( t_vm - t0 ))) (roots $(mmss "$t_roots"))$line"
}

# run_lane UNIT...: run each unit in turn, its output in $logs/UNIT.log.
run_lane() {
	local u ready
	for u in "$@"; do
		# There before follow_unit reads it.
		: >"$logs/$u.log"
		ready=1
		root_ready "$u" || ready=
		date +%s >"$logs/$u.start"
		if too_late; then
			skip_unit "$u" >"$logs/$u.log" 2>&1 &
		elif [ -z "$ready" ]; then
			fail_unit "$u" >"$logs/$u.log" 2>&1 &
		elif [ "$u" = bundle ]; then
			"$top/tests/bench/bundle-check.sh" >"$logs/$u.log" 2>&1 &
		else
			# shellcheck disable=SC2046
			"$top/tests/vm/suite.sh" "$u" $(cat "$logs/$u.tests") >"$logs/$u.log" 2>&1 &
		fi
		echo $! >"$logs/$u.pid.new"
		mv "$logs/$u.pid.new" "$logs/$u.pid"
		wait $! || true
		date +%s >"$logs/$u.end"
		progress
	done
}

# kill_tree PID: end a process and all it started, each stopped before its
# children are looked up, so that none starts another meanwhile.
kill_tree() {
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill -TERM "$1" 2>/dev/null
	kill -CONT "$1" 2>/dev/null || true
}

# end_prep ROOT: end an arm64 root's work beside the rest (arm64_prep) if
# it still runs, and mark it ended: its pid, perhaps another process's by
# then, is not killed again.
end_prep() {
	[ -e "$logs/prep-$1.end" ] || kill_tree "$(cat "$logs/prep-$1.pid")"
	mark "prep-$1.end" ended
}

# arm64_root_result UNIT: for the first unit booting an arm64 root made
# beside the rest (arm64_prep), the output of its second stage and the
# root's result; a root not made when CHECK_START_BY's minutes have gone by
# is not waited for (its targets' tests are skipped: run_lane,
# beside_result), and its work is ended.
arm64_root_result() {
	local r
	[ "$1" != bundle ] && [ "$(target_arch "$1")" = arm64 ] || return 0
	r=$(target_root "$1")
	[ -s "$logs/prep-$r.pid" ] && [ ! -e "$logs/prep-$r.reported" ] || return 0
	touch "$logs/prep-$r.reported"
	if ! wait_for "prep-$r.root"; then
		end_prep "$r"
		cat "$logs/prep-$r.log"
		result "SKIP root/$r: not finished when CHECK_START_BY=$CHECK_START_BY minutes had gone by"
		return 0
	fi
	cat "$logs/prep-$r.log"
	times="$times
  the $r root's second stage, beside the rest: $(mmss $(( $(cat "$logs/prep-$r.root-end") - t_arm64 )))"
	if [ "$(cat "$logs/prep-$r.root")" = 0 ]; then
		result "PASS root/$r"
	else
		result "FAIL root/$r: cannot finish the $r root in its guest (above)"
	fi
}

# beside_result UNIT: the results of the tests an arm64 unit runs beside
# the rest (arm64_prep), when they have ended; tests not ended when
# CHECK_START_BY's minutes have gone by are ended and skipped.
beside_result() {
	local r why="not finished: CHECK_START_BY=${CHECK_START_BY:-} minutes had gone by (a run without it runs it)"
	r=$(target_root "$1")
	arm64_root_result "$1"
	if ! wait_for "prep-$r.root"; then
		relay "$1" < <(skip_unit "$1" beside "$why")
		return 0
	fi
	if [ "$(cat "$logs/prep-$r.root")" != 0 ]; then
		relay "$1" < <(fail_unit "$1" beside)
		return 0
	fi
	if ! wait_for "$1.beside-end"; then
		end_prep "$r"
		cat "$logs/$1.beside.log" 2>/dev/null
		relay "$1" < <(skip_unit "$1" beside "$why")
		return 0
	fi
	relay "$1" <"$logs/$1.beside.log"
	unreported "$1" beside
	times="$times
  $1, its tests beside the rest ($(echo $(cat "$logs/$1.beside"))): $(mmss $(( $(cat "$logs/$1.beside-end") - $(cat "$logs/$1.beside-start") )))"
}

# unit_name UNIT: how the summary names it.
unit_name() {
	if [ "$1" = bundle ]; then echo "bench bundle"; else echo "$1"; fi
}

# relay UNIT: a suite's output from stdin, counting its results; the tests
# it reported are in $seen.
relay() {
	local line t
	seen=
	while IFS= read -r line; do
		case $line in
		PASS\ * | FAIL\ * | SKIP\ *)
			result "$line"
			t=${line#* }
			t=${t%%:*}
			seen="$seen ${t#*/} "
			;;
		suite:\ RETRY:*)
			echo "$line"
			retries="$retries $1"
			;;
		suite:\ NEAR-LIMIT\ *)
			echo "$line"
			near="$near
  ${line#suite: NEAR-LIMIT }"
			;;
		*) echo "$line" ;;
		esac
	done
}

# unreported UNIT [LIST]: a FAIL line for each of its tests (those in
# $logs/UNIT.LIST, default tests) that relay did not see.
unreported() {
	local t
	for t in $(cat "$logs/$1.${2:-tests}"); do
		case $seen in
		*" $t "*) ;;
		*) result "FAIL $1/$t: no result: the suite stopped before reporting it (see above)" ;;
		esac
	done
}

# follow_unit UNIT: its output as it comes, counting its results; a unit
# that stopped early fails each test it did not report.
follow_unit() {
	local u=$1
	while [ ! -s "$logs/$u.pid" ]; do sleep 1; done
	relay "$u" < <(tail -n +1 -f --pid="$(cat "$logs/$u.pid")" "$logs/$u.log")
	while [ ! -s "$logs/$u.end" ]; do sleep 1; done
	if [ "$u" = bundle ]; then
		[ -n "$seen" ] ||
			result "FAIL host/bench_bundle_runs_from_a_fresh_folder_without_qemu: no result: the check stopped before reporting (above)"
		return 0
	fi
	unreported "$u"
}

install_host_tools() {
	local need=
	command -v qemu-system-x86_64 >/dev/null || need="$need qemu-system-x86"
	command -v debootstrap >/dev/null || need="$need debootstrap"
	command -v cpio >/dev/null || need="$need cpio"
	command -v xz >/dev/null || need="$need xz-utils"
	command -v zstd >/dev/null || need="$need zstd"
	# deb-fetch.sh: packages fetched without a root (arm64 headers, kernel sources).
	command -v curl >/dev/null || need="$need curl"
	command -v objdump >/dev/null || need="$need binutils"
	# The arm64 builds' gate check, and the arm64 root's module lists.
	command -v aarch64-linux-gnu-objdump >/dev/null || need="$need binutils-aarch64-linux-gnu"
	command -v depmod >/dev/null || need="$need kmod"
	# kill_tree: the arm64 work beside the rest, ended at CHECK_START_BY.
	command -v pgrep >/dev/null || need="$need procps"
	command -v python3 >/dev/null || need="$need python3"
	command -v perl >/dev/null || need="$need perl"
	command -v dh_dkms >/dev/null || need="$need dh-dkms"
	command -v dh >/dev/null || need="$need debhelper"
	command -v dpkg-buildpackage >/dev/null || need="$need dpkg-dev"
	command -v lintian >/dev/null || need="$need lintian"
	[ -z "$need" ] && return 0
	echo "check: installing$need"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $need >/dev/null
}

# Counted before this run loads the host; a bad CHECK_LANES stops the run
# before it changes anything.
load_at_start=$(cut -d' ' -f1 /proc/loadavg)
n_lanes=$(check_lanes) || { echo "0 passed, 1 failed"; exit 2; }
case ${CHECK_START_BY:-1} in
'' | *[!0-9]*) echo "check: CHECK_START_BY='$CHECK_START_BY': give whole minutes"; echo "0 passed, 1 failed"; exit 2 ;;
esac

section "host tools and build roots"
if [ "$(id -u)" != 0 ]; then
	echo "check: must run as root (debootstrap, chroot, QEMU 9p passthrough)"
	echo "0 passed, 1 failed"
	exit 1
fi
install_host_tools || { echo "check: cannot install host tools"; echo "0 passed, 1 failed"; exit 1; }
# The in-VM tests: all of them, or those TESTS names.
all_tests=${TESTS:-$(cd "$top/tests/guest/specs" && ls *.sh | sed 's/\.sh$//')}
# The targets to boot, and the build roots they need: an arm64 target's
# own, and the amd64 root of its suite that its module is cross-built in
# (targets.sh: target_build_root).  The host checks need no arm64 root, and
# nor does a run that gives its targets no test.
targets=
suites=
for k in $KERNELS; do
	t=$(target_of "$k") || { echo "0 passed, 1 failed"; exit 1; }
	case " $targets " in
	*" $t "*) ;;
	*) targets="$targets $t" ;;
	esac
	for s in $(target_build_root "$t") $(target_root "$t"); do
		if [ "$(target_arch "$s")" = arm64 ]; then
			[ "$mode" = all ] && [ -n "$(target_tests "$t" $all_tests)" ] || continue
		fi
		case " $suites " in
		*" $s "*) ;;
		*) suites="$suites $s" ;;
		esac
	done
done
# Each target's tests (targets.sh: target_tests), in $logs/TARGET.tests,
# run in its turn in a lane; an arm64 target's of beside_tests in
# $logs/TARGET.beside instead, run in its root's arm64 work (arm64_prep):
# a build under emulation, many minutes of both cores, that times nothing.
beside_tests="dkms_in_the_guest_builds_the_module_the_tests_load"
for t in $targets; do
	: >"$logs/$t.tests"
	: >"$logs/$t.beside"
	for x in $(target_tests "$t" $all_tests); do
		if [ "$(target_arch "$t")" = arm64 ] && [[ " $beside_tests " == *" $x "* ]]; then
			echo "$x" >>"$logs/$t.beside"
		else
			echo "$x" >>"$logs/$t.tests"
		fi
	done
done
# arm64_root_target ROOT: what an arm64 root is made for (mkroot-arm64.sh):
# its cloud target where this run gives that tests, else ROOT, whose root
# holds only the generic kernel.
arm64_root_target() {
	local t
	for t in $targets; do
		if [ "$(target_root "$t")" = "$1" ] && [ "$(target_flavour "$t")" = cloud-arm64 ] &&
			{ [ -s "$logs/$t.tests" ] || [ -s "$logs/$t.beside" ]; }; then
			echo "$t"
			return
		fi
	done
	echo "$1"
}
# The roots are independent (each its own debootstrap, folder and logs), and
# a cold run spends most of their time waiting on the mirror: all at once.
# An arm64 root's first stage too (downloads and unpacking); its second,
# in a guest, runs beside the amd64 work (arm64_prep below).
# The mirror is read first, once: with no apt lists yet, mirror.sh runs
# apt-get update, which only one process may run at a time.
"$top/tests/vm/mirror.sh" debian >/dev/null && "$top/tests/vm/mirror.sh" debian-security >/dev/null ||
	echo "check: the host's apt configuration names no Debian mirror (above)"
for s in $suites; do
	if [ "$(target_arch "$s")" = arm64 ]; then
		"$top/tests/vm/mkroot-arm64.sh" "$(arm64_root_target "$s")" stage1 >"$logs/root-$s.log" 2>&1 &
	else
		"$top/tests/vm/mkroot.sh" "$s" >"$logs/root-$s.log" 2>&1 &
	fi
	echo $! >"$logs/root-$s.pid"
done
t_roots=$(date +%s)
arm64_roots=
for s in $suites; do
	rc=0
	wait "$(cat "$logs/root-$s.pid")" || rc=$?
	cat "$logs/root-$s.log"
	if [ "$(target_arch "$s")" = arm64 ]; then
		# Reported with its second stage (arm64_root_result).
		if [ "$rc" = 0 ]; then
			arm64_roots="$arm64_roots $s"
		else
			result "FAIL root/$s: cannot download or unpack the $s root's first stage"
		fi
	elif [ "$rc" = 0 ]; then
		result "PASS root/$s"
	else
		result "FAIL root/$s: cannot build the $s build root"
	fi
done
# What a cold run pays and a warm one does not: debootstrap of each root.
t_roots=$(( $(date +%s) - t_roots ))

# arm64_prep ROOT: the rest of an arm64 root, its second stage in a guest;
# then, once the host checks have made the builds its suites use (build
# roots, cross compilers), each of its targets' tests that run beside the
# rest ($logs/TARGET.beside: the DKMS test, whose build compiles the module
# under emulation, minutes of both cores with nothing in the compiler
# cache), in a suite of their own (SUITE_JOB) beside their target's.
# Both run beside the amd64 work, at the lowest priority: they take the
# cores the amd64 guests leave idle, so those guests' time limits and race
# windows stay as they were set, and their own limits are three times
# their tests' (SUITE_TIME_SCALE).  An arm64 target's tests in a lane start
# when its root is done (run_lane).  The guests of this work may wait long
# for a core, which their kernel would take for a lockup or a stalled RCU
# grace period: they run without the lockup detectors and with the longest
# RCU stall timeout (300 s).
arm64_prep() {
	local s=$1 t rc=0
	export VM_APPEND="${VM_APPEND:-} nowatchdog rcupdate.rcu_cpu_stall_timeout=300"
	nice -n 19 "$top/tests/vm/mkroot.sh" "$(arm64_root_target "$s")" >"$logs/prep-$s.log" 2>&1 || rc=$?
	mark "prep-$s.root-end" "$(date +%s)"
	mark "prep-$s.root" "$rc"
	[ "$rc" = 0 ] || return 0
	while [ ! -e "$logs/host.done" ]; do
		[ -d "$logs" ] || return 0
		sleep 5
	done
	for t in $targets; do
		[ "$(target_root "$t")" = "$s" ] && [ -s "$logs/$t.beside" ] || continue
		mark "$t.beside-start" "$(date +%s)"
		# shellcheck disable=SC2046
		SUITE_JOB=$t-beside SUITE_TIME_SCALE=3 nice -n 19 "$top/tests/vm/suite.sh" "$t" \
			$(cat "$logs/$t.beside") >"$logs/$t.beside.log" 2>&1
		mark "$t.beside-end" "$(date +%s)"
	done
}
# The second stage of an arm64 root, as the amd64 work begins (make check);
# one whose first stage failed has none.  Its guests need the emulator,
# which emulator.sh unpacks with apt in the trixie root: first, here, and
# not beside the host checks' own apt runs there (root-cross.sh).
t_arm64=$(date +%s)
[ -z "$arm64_roots" ] || "$top/tests/vm/emulator.sh" >/dev/null ||
	echo "check: cannot unpack the emulator for the arm64 roots (above)"
for s in $suites; do
	[ "$(target_arch "$s")" = arm64 ] || continue
	case " $arm64_roots " in
	*" $s "*)
		{
			arm64_prep "$s"
			mark "prep-$s.end" "$(date +%s)"
		} &
		echo $! >"$logs/prep-$s.pid"
		;;
	*) mark "prep-$s.root" 1 ;;
	esac
done

section "host: build for every kernel, gate check"
# gate_check SUITE KVER KO: the built module's calls into the kernel all go
# through its gate (tests/host/gate_check.py; on x86-64, the IBT check).
gate_check() {
	local out
	if out=$(python3 "$top/tests/host/gate_check.py" "$3"); then
		result "PASS gate-check/$2"
	else
		echo "$out"
		result "FAIL gate-check/$2: the module has an indirect branch or leaks resolved addresses"
	fi
}
# build_and_check SUITE KVER
build_and_check() {
	local ko
	if ko=$("$top/tests/vm/build.sh" "$1" "$2" 2>&1 | tail -n 1) && [ -f "$ko" ]; then
		result "PASS build/$2"
		gate_check "$1" "$2" "$ko"
	else
		"$top/tests/vm/build.sh" "$1" "$2" 2>&1 | tail -n 30
		result "FAIL build/$2: build failed"
	fi
}
for s in $suites; do
	root=$CLUSTERSWAP_CACHE/roots/$s
	[ -d "$root/lib/modules" ] || continue
	# An arm64 root's kernels are built for below, in its suite's amd64 root.
	[ "$(target_arch "$s")" = arm64 ] && continue
	for kver in $(ls "$root/lib/modules" | sort -V); do
		# The arm64 headers root-cross.sh put there: built for below.
		case $kver in *-arm64) continue ;; esac
		build_and_check "$s" "$kver"
	done
done
# The arm64 kernels, each built in the amd64 root of its suite by its
# suite's cross compiler (tests/vm/root-cross.sh), in every run: Debian
# 13's in the trixie root, Debian 12's in the bookworm root.  What was
# built for, as ROOT:KVER.
cross_roots="trixie bookworm"
arm64_builds=
for r in $cross_roots; do
	[ -d "$CLUSTERSWAP_CACHE/roots/$r/lib/modules" ] || continue
	if kvers=$("$top/tests/vm/root-cross.sh" "$r"); then
		for kver in $kvers; do
			build_and_check "$r" "$kver"
			arm64_builds="$arm64_builds $r:$kver"
		done
	else
		result "FAIL root/$r-arm64: cannot give the $r root the arm64 compiler and headers"
	fi
done

section "host: the gate check catches a bad module"
# catches_bad ROOT KVER: the check flags each rule the fixture breaks.
catches_bad() {
	local bad out rc
	bad=$("$top/tests/vm/build.sh" "$1" "$2" "$top/tests/host/gate-fixture" | tail -n 1)
	out=$(python3 "$top/tests/host/gate_check.py" "$bad")
	rc=$?
	echo "$out"
	# Here-strings, not "echo | grep -q": under pipefail, grep -q ends at
	# its first match and a later line of echo (bash writes line by line
	# to a pipe) fails on the closed pipe, failing the test at random.
	if [ $rc = 1 ] && grep -q 'at gate_bad_indirect_call' <<<"$out" &&
		grep -q 'at __traceiter_not_an_event' <<<"$out" &&
		grep -q 'read outside cs_sym_' <<<"$out"; then
		result "PASS gate-check/catches-bad-fixture/$2"
	else
		result "FAIL gate-check/catches-bad-fixture/$2: the check did not flag all three rule breaks (exit $rc)"
	fi
}
if [ -d "$CLUSTERSWAP_CACHE/roots/trixie/lib/modules" ]; then
	catches_bad trixie "$(root_kernel "$CLUSTERSWAP_CACHE/roots/trixie")"
fi
for b in $arm64_builds; do
	case $b in *-cloud-arm64) ;; *) catches_bad "${b%%:*}" "${b#*:}" ;; esac
done

section "host: build-time kernel gate"
while read -r line; do
	result "$line"
done < <("$top/tests/host/gate_test.sh")

section "host: versions and the Debian package"
result "$("$top/tests/host/version_test.sh")"
# The listing is captured first: under pipefail, "dpkg-deb -c | grep -q" fails
# whenever grep stops reading early.
if deb=$("$top/tests/deb.sh" 2>&1 | tail -n 1) && [ -f "$deb" ] &&
	listing=$(dpkg-deb -c "$deb") &&
	grep -q 'usr/src/clusterswap-.*/dkms.conf$' <<<"$listing" &&
	! grep -q '\.ko' <<<"$listing"; then
	result "PASS deb/build $(basename "$deb") (source for DKMS, no binary)"
else
	echo "$deb"
	result "FAIL deb/build: make deb failed or the package is not a source-only DKMS package"
fi
# The package as Debian judges it: lintian clean at the errors-and-warnings
# level (overrides, each with its reason, in debian/*.lintian-overrides).
if [ -f "$deb" ] && lint=$(lintian --fail-on error,warning "$deb" 2>&1); then
	result "PASS deb/lintian $(basename "$deb")"
else
	echo "${lint:-}"
	result "FAIL deb/lintian: lintian reports errors or warnings on the package (above), or make deb failed"
fi

section "host: checkpatch --strict"
if src=$("$top/tests/host/kernel-source.sh" trixie 2>/dev/null); then
	# compat.h exists to compare kernel versions: checkpatch's LINUX_VERSION_CODE
	# advice is for in-tree code and does not apply to it.
	out=$(perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--ignore LINUX_VERSION_CODE -f $(cd "$top" && git ls-files -co --exclude-standard \
		-- 'module/*.c' 'module/*.h' 'module/*.S' 'include/*.h' | sed "s|^|$top/|") 2>&1 | grep -v '^total: 0 errors, 0 warnings, 0 checks')
	if [ -z "$out" ]; then
		result "PASS checkpatch"
	else
		echo "$out"
		result "FAIL checkpatch: module code is not checkpatch --strict clean"
	fi
else
	result "FAIL checkpatch: cannot unpack checkpatch.pl from linux-source-6.12"
fi

if [ "$mode" = all ]; then
	section "host: the guests' emulator"
	# Debian 13's QEMU, unpacked from the trixie root's suite (the host's
	# 7.2 loses cross-CPU code patching: tests/vm/emulator.sh).
	if qemu=$("$top/tests/vm/emulator.sh") && "$qemu" --version | head -n 1; then
		result "PASS emulator"
	else
		result "FAIL emulator: cannot unpack Debian 13's QEMU (above); no guest can boot"
	fi
	t_vm=$(date +%s)
	# The arm64 work beside the rest may start its suites (arm64_prep).
	touch "$logs/host.done"
	units=
	arm64_units=
	beside_units=
	for s in $targets; do
		tests=$(echo $(target_tests "$s" $all_tests))
		[ -n "$tests" ] || continue
		[ "$tests" = "$(echo $all_tests)" ] || echo "check: $s runs: $tests (targets.sh)"
		[ -s "$logs/$s.beside" ] && {
			echo "check: $s runs beside the rest: $(echo $(cat "$logs/$s.beside")) (arm64_prep)"
			beside_units="$beside_units $s"
		}
		[ -s "$logs/$s.tests" ] || continue
		if [ "$(target_arch "$s")" = arm64 ]; then
			arm64_units="$arm64_units $s"
		else
			units="$units $s"
		fi
	done
	# The bench bundle (make bench-bundle): built, unpacked and run once as an
	# unprivileged user with no QEMU on the PATH, so that it cannot rot.
	# CHECK_BUNDLE=0 leaves it out (a partial run for one's own iterations).
	[ "${CHECK_BUNDLE:-1}" = 1 ] && units="$units bundle"
	# The arm64 targets last: their roots are made beside the rest.
	units="$units$arm64_units"
	echo "check: $(nproc) cores, load $load_at_start when the run began: $n_lanes lane(s) of guests side by side (CHECK_LANES names another count)"
	lane_pids=
	lanes_run=0
	while read -r lane; do
		[ -n "$lane" ] || continue
		echo "check: one lane runs, in turn:$lane"
		run_lane $lane &
		lane_pids="$lane_pids $!"
		lanes_run=$((lanes_run + 1))
	done < <(plan_lanes "$n_lanes" $units)
	for u in $units; do
		if [ "$u" = bundle ]; then section "bench bundle"; else section "VM: $u"; fi
		arm64_root_result "$u"
		follow_unit "$u"
		times="$times
  $(unit_name "$u"): $(unit_time "$u")"
	done
	wait $lane_pids
	for u in $beside_units; do
		section "VM: $u, its tests beside the rest"
		beside_result "$u"
	done
	# Every arm64 root's work was reported, or ended at CHECK_START_BY
	# (arm64_root_result, beside_result); none outlives the run.
	for f in "$logs"/prep-*.pid; do
		[ -e "$f" ] || continue
		f=${f#"$logs/prep-"}
		end_prep "${f%.pid}"
	done
	[ "$lanes_run" -le 1 ] || times="$times
  all of them, in $lanes_run lanes side by side: $(mmss $(( $(date +%s) - t_vm )))"
fi

section "summary"
echo "accelerator: TCG, multi-threaded, on $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores (make check stays on TCG: the suite's race windows and time limits are set for it)"
echo "time: host checks $(mmss $(( ${t_vm:-$(date +%s)} - t0 ))), of which the build roots $(mmss "$t_roots") (a warm run finds them built)$times"
[ -n "$skips" ] && echo "skipped:$skips"
[ -n "$failures" ] && echo "failed:$failures"
[ -n "$near" ] && echo "over half their time limit (a slower host could time them out):$near"
[ -n "$retries" ] && echo "boots retried (the stock kernel died before any test ran):$retries"
echo "took $(( $(date +%s) - t0 ))s ($(mmss $(( $(date +%s) - t0 ))))"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
