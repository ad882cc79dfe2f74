#!/bin/bash
# Run the in-VM suite on one target's kernel (the newest of its flavour in
# its build root).
#
#   suite.sh TARGET TEST...
#
# TARGET is one of targets.sh's (trixie, bookworm, bookworm-612,
# trixie-cloud, bookworm-cloud, trixie-arm64, bookworm-arm64,
# trixie-arm64-cloud, bookworm-arm64-cloud); results are named by its label
# (6.12, 6.1, 6.12-deb12, 6.12-cloud, 6.1-cloud, 6.12-arm64, 6.1-arm64,
# 6.12-cloud-arm64, 6.1-cloud-arm64).
# SUITE_PREPARE_ONLY=1 and SUITE_SPECS=DIR: below.  SUITE_JOB=NAME names
# the job's folder (default: the target), for a second suite of a target
# beside the first (check.sh: the arm64 DKMS test, arm64_prep).
# SUITE_KVER names another kernel release to build for and boot (with
# VM_KERNEL, VM_INITRD: see run-vm.sh); SUITE_DEBUG=1 says it is a debug
# build, which runs the tests marked DEBUG_<test>=only too.  SUITE_TIME_SCALE=N
# multiplies every test's time limit (a debug kernel runs several times
# slower); the workloads stay the same.
#
# Builds the module and the test programs in the build root, boots the stock
# kernel in QEMU, runs the tests (tests/guest/specs/*.sh) and prints one line per
# test: "PASS <line>/<test>" or "FAIL <line>/<test>: reason".  A failing test's
# output and the guest's kernel log tail are printed above its line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
target=${1:?usage: suite.sh TARGET TEST...}
shift
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
. "$here/targets.sh"
# The build root the target boots (a cloud target: its line's root), and
# the root its module and programs are built in: the same, or for an arm64
# target the amd64 root of its suite with its cross compiler
# (root-cross.sh).
suite=$(target_root "$target")
root=$cache/roots/$suite
build_suite=$(target_build_root "$target")
build_root=$cache/roots/$build_suite
arch=$(target_arch "$target")
# By the target: an arm64 cloud target's root must hold its kernel.
"$here/mkroot.sh" "$target"
[ "$arch" = arm64 ] && "$here/root-cross.sh" "$build_suite" >/dev/null
kver=${SUITE_KVER:-$(root_kernel "$root" "$(target_flavour "$target")")}
line=$(echo "$kver" | cut -d. -f1,2)
label=$(target_label "$target" "$kver")
job_name=${SUITE_JOB:-$target}
job=$cache/jobs/$job_name

rm -rf "$job"
mkdir -p "$job/bin"
"$here/root-warm.sh" "$suite"
ko=$("$here/build.sh" "$build_suite" "$kver" | tail -n 1)
# Where the build root has no cross compiler of the kernel's own, the module
# the tests load is built in its guest, by that compiler; the test builds
# (self-tests, fixtures) stay cross-built.
if [ "$arch" = arm64 ] && ! cross_cc_is_kernels "$build_root" "$(target_suite "$build_suite")" "$kver"; then
	ko=$("$here/guest-build.sh" "$target" "$kver" | tail -n 1)
fi
cp "$ko" "$job/clusterswap.ko"
BUILD_SELFTEST=1 "$here/build.sh" "$build_suite" "$kver" | tail -n 1 | xargs -I{} cp {} "$job/clusterswap-selftest.ko"
for fixture in squatter corrupter widener; do
	ko=$("$here/build.sh" "$build_suite" "$kver" "$top/tests/guest/fixtures/$fixture" | tail -n 1)
	cp "$ko" "$job/"
done

# Test programs: static, built with the suite's own compiler (for arm64,
# the build root's cross compiler, the same gcc as its kernels': gcc-14 in
# trixie, gcc-12 in bookworm).
cc=gcc
[ "$arch" = arm64 ] && cc=$(suite_cross_cc "$(target_suite "$build_suite")" "$arch")
rm -rf "$build_root/tmp/cs-guest-$job_name"
mkdir -p "$build_root/tmp/cs-guest-$job_name"
cp "$top"/tests/guest/programs/*.c "$build_root/tmp/cs-guest-$job_name/"
chroot "$build_root" sh -c "cd /tmp/cs-guest-$job_name && for c in *.c; do
	$cc -O2 -Wall -Wextra -Werror -static -pthread -o \"\${c%.c}\" \"\$c\" || exit 1; done"
for c in "$top"/tests/guest/programs/*.c; do
	b=$(basename "$c" .c)
	cp "$build_root/tmp/cs-guest-$job_name/$b" "$job/bin/"
done

cp "$top/tools/clusterswap-top" "$job/bin/"
# Where kallsyms lists no variables, the symbol table to check the module's
# findings against (resolved_symbols_match_the_symbol_table).
map=$("$here/system-map.sh" "$suite" "$kver")
[ -z "$map" ] || cp "$map" "$job/System.map"
cp "$top/tests/guest/trim-modules.sh" "$job/bin/"

# The source tree as users install it (DKMS, the Debian package).
"$top/tests/ship-tree.sh" "$job/src"
"$top/tests/deb.sh" "$job" >/dev/null
cp "$top"/tests/guest/lib.sh "$job/"
cp -a "$top"/tests/guest/specs "$job/"
# SUITE_SPECS=DIR: more tests, from DIR/*.sh (tests/crashrate.sh's probe).
[ -n "${SUITE_SPECS:-}" ] && cp "$SUITE_SPECS"/*.sh "$job/specs/"
cp "$top/tests/guest/runner.sh" "$job/run.sh"
echo "$@" >"$job/tests"
scale=${SUITE_TIME_SCALE:-1}
echo "$scale" >"$job/time_scale"
# SUITE_PREPARE_ONLY=1: leave the job ready for run-vm.sh and boot nothing.
[ "${SUITE_PREPARE_ONLY:-0}" = 1 ] && { echo "$job"; exit 0; }

# A test's own boot may ask for more CPUs (SMP_<test>=N), a virtio disk of
# N MiB (DISK_<test>=N, /dev/vda in the guest), more kernel command line
# (APPEND_<test>="preempt=full"), a root with clusterswap installed on the
# host by apt or as the README says (ROOT_<test>=deb|readme: root-installed.sh),
# and on arm64 a CPU without pointer authentication (PAUTH_<test>=off:
# run-vm.sh, VM_PAUTH).
directive() {
	sed -n "s/^$1_$2=//p" "$top/tests/guest/specs/$2.sh" | tr -d '"'
}

# A test that cannot come back to /job (END_<test>=serial: after a
# hibernation cycle the guest's 9p shares are gone) reports on the serial
# console instead, "cs-result: PASS <test>" or "cs-result: FAIL <test>:
# reason", and powers the guest off.  Its kernel log is the serial console
# from its "cs-mark: start" line on: a warning, BUG or lockup there fails it.
BAD_LOG=$(sed -n "s/^BAD_LOG='\\(.*\\)'\$/\\1/p" "$top/tests/guest/lib.sh")
[ -n "$BAD_LOG" ] || { echo "suite.sh: no BAD_LOG in tests/guest/lib.sh"; exit 1; }
serial_results() {
	local log=$job/serial.log verdict bad
	echo "--- $label/$1 serial console:"
	sed -n '/cs-mark: start/,$p' "$log" | grep -av '^\[' | sed 's/^/  | /' || true
	sed -n '/cs-mark: start/,$p' "$log" | grep -a 'PM: hibernation: \(Wrote\|Read\)' |
		sed 's/^/  | /' || true
	verdict=$(tr -d '\r' <"$log" | grep -a "^cs-result: [A-Z]* $1\b" | tail -n 1 |
		sed 's/^cs-result: //') || true
	[ -n "$verdict" ] || return 0
	bad=$(sed -n '/cs-mark: start/,$p' "$log" | grep -aE "$BAD_LOG" | head -n 1) || true
	if [ -n "$bad" ] && [ "${verdict%% *}" = PASS ]; then
		verdict="FAIL $1: kernel log: $bad"
	fi
	echo "$verdict" >>"$all_results"
}

# first_bad: the first line of the serial console that BAD_LOG matches, as
# "LINENO:TEXT", or nothing.
first_bad() {
	grep -anE "$BAD_LOG" "$job/serial.log" 2>/dev/null | head -n 1
}

# Why a guest did not finish, for the summary line of each test it did not
# run to the end: the first line of the serial console that BAD_LOG matches,
# where the CPU was (the first RIP line after it), and the call trace after
# that (its first 12 reliable frames, innermost first), or nothing.  CI shows only
# the summary, so the line carries what a reader needs to start on the bug.
guest_death() {
	local log=$job/serial.log first bad rip trace late
	first=$(first_bad) || true
	[ -n "$first" ] || return 0
	bad=$(echo "${first#*:}" | tr -d '\r' | sed 's/^\[ *[0-9.]*\] //')
	rip=$(tail -n "+${first%%:*}" "$log" | grep -a -m 1 'RIP: 0010:' | tr -d '\r' |
		sed 's/.*RIP: 0010:/ at /') || true
	trace=$(tail -n "+${first%%:*}" "$log" | tr -d '\r' |
		sed -n '/Call Trace:/,/<\/TASK>\|---\[ end/p' |
		sed -n 's/^\[ *[0-9.]*\]  *\([A-Za-z0-9_.]*+0x[0-9a-f]*\/0x[0-9a-f]*\).*/\1/p' |
		grep -v '^\(asm_\|entry_\|do_syscall\)' | head -n 12 | paste -sd' ' | sed 's/ / < /g') || true
	# Code patching after boot is what QEMU 7.2's multi-threaded TCG lost
	# (vm/emulator.sh); a clocksource switch patches static branches.
	late=$(head -n "${first%%:*}" "$log" | tr -d '\r' |
		grep -a 'clocksource\|TSC unstable' | grep -av '^\[ *[0-9]\.' | tail -n 1 |
		sed 's/^\[ *\([0-9.]*\)\] /at \1 s: /') || true
	echo " (serial console: $bad$rip${trace:+; call trace: $trace}${late:+; before it, $late})"
}

# keep_serial TEST: a dead guest's whole serial console outlives the job
# folder (the next boot reuses it), in the cache's failed-boots folder, the
# newest 20 kept; its report from the first bad line on is printed too.
keep_serial() {
	local keep=$cache/failed-boots first
	mkdir -p "$keep"
	cp "$job/serial.log" "$keep/$(date +%Y%m%d-%H%M%S)-$label-$1.serial.log" 2>/dev/null || return 0
	ls -t "$keep"/*.serial.log | tail -n +21 | xargs -r rm -f
	first=$(first_bad) || true
	[ -n "$first" ] || return 0
	echo "--- $label/$1: serial console from the first bad line (kept in $keep)"
	tail -n "+${first%%:*}" "$job/serial.log" | tr -d '\r' | head -n 80 | sed 's/^/  | /'
}

# run_group TEST...: one boot running TEST... Appends to $all_results.
run_group() {
	local limit=60 t t_limit smp=2 disk= extra= append= installed= vmroot= pauth=
	if [ $# = 1 ]; then
		smp=$(directive SMP "$1")
		disk=$(directive DISK "$1")
		append=$(directive APPEND "$1")
		installed=$(directive ROOT "$1")
		[ "$arch" = arm64 ] && pauth=$(directive PAUTH "$1")
	fi
	if [ -n "$installed" ]; then
		local what=$job/src
		[ "$installed" = deb ] && what=$(ls "$job"/clusterswap-dkms_*_all.deb)
		echo "suite: installing clusterswap into a root for $1 on the host ($installed)"
		if ! vmroot=$("$here/root-installed.sh" mount "$suite" "$kver" "$installed" "$what" | tail -n 1) ||
			[ ! -d "$vmroot/usr" ]; then
			"$here/root-installed.sh" umount "$suite" || true
			echo "FAIL $1: the host-side $installed install into the root failed (above)" >>"$all_results"
			return
		fi
	fi
	if [ -n "$disk" ]; then
		rm -f "$job/disk.img"
		truncate -s "${disk}M" "$job/disk.img"
		# discard=unmap: the guest may discard (swapon --discard), and the
		# sparse image gives the space back.
		extra="-drive file=$job/disk.img,if=virtio,format=raw,discard=unmap"
	fi
	for t in "$@"; do
		t_limit=$(directive TIMEOUT "$t")
		[ "$arch" = arm64 ] && [ -n "$(directive TIMEOUT_ARM64 "$t")" ] &&
			t_limit=$(directive TIMEOUT_ARM64 "$t")
		limit=$((limit + ${t_limit:-120} * scale + 20))
	done
	echo "$@" >"$job/tests"
	echo "suite: booting $kver (${smp:-2} CPUs${disk:+, ${disk} MiB disk}${append:+, $append}${pauth:+, pointer authentication $pauth}) with: $*"
	local start=$(date +%s)
	local vm_ok=1 boot
	for boot in 1 2; do
		vm_ok=1
		VM_SMP=${smp:-2} VM_QEMU_EXTRA=$extra VM_APPEND="${VM_APPEND:-} $append" \
			VM_PAUTH=${pauth:-on} VM_ROOT=$vmroot "$here/run-vm.sh" "$suite" "$kver" "$job" "$limit" || vm_ok=
		# A guest that died before PID 1 started the runner ran no test
		# and loaded no module: the stock kernel did not boot.  Under
		# Debian 12's QEMU 7.2 it sometimes did not (a fatal int3 where
		# boot patches kernel text: vm/emulator.sh); that boot, and only
		# that one, is tried once more, and check.sh's summary counts it.
		[ -z "$vm_ok" ] && [ ! -e "$job/out/console.log" ] && [ "$boot" = 1 ] || break
		echo "suite: RETRY: the stock kernel died while booting, before any test ran (serial tail above); booting once more"
		echo "$kver $*" >>"$job/boot-retries"
	done
	[ -n "$installed" ] && "$here/root-installed.sh" umount "$suite"
	if [ -z "$vm_ok" ]; then
		[ -f "$job/out/console.log" ] && tail -n 60 "$job/out/console.log"
		keep_serial "$1"
		cat "$job/out/results" >>"$all_results" 2>/dev/null || true
		[ "$(directive END "$1")" = serial ] && serial_results "$1"
		local why
		why=$(guest_death)
		for t in "$@"; do
			grep -q "^[A-Z]* $t\b" "$job/out/results" "$all_results" 2>/dev/null ||
				echo "FAIL $t: the guest did not run it to the end$why" >>"$all_results"
		done
		return
	fi
	echo "suite: $kver ran in $(( $(date +%s) - start ))s (boot and tests)"
	sed 's/^/  | /' "$job/out/console.log"
	while read -r verdict rest; do
		t=${rest%%:*}
		if [ "$verdict" = FAIL ]; then
			echo "--- $label/$t output and kernel log:"
			cat "$job/out/$t.log" 2>/dev/null
			tail -n 30 "$job/out/$t.dmesg" 2>/dev/null
		fi
	done <"$job/out/results"
	cat "$job/out/results" >>"$all_results"
	near_limit
	rm -f "$job/disk.img"
}

# near_limit: a line for each test of the last boot that used more than half
# its time limit ("suite: NEAR-LIMIT line/test: N s of its L s"): check.sh's
# summary lists them, the tests a slower host could time out.
near_limit() {
	local t used lim
	[ -f "$job/out/times" ] || return 0
	while read -r t used lim; do
		if [ $((used * 2)) -gt "$lim" ]; then
			echo "suite: NEAR-LIMIT $label/$t: ${used} s of its ${lim} s"
		fi
	done <"$job/out/times"
}

# A test that leaves the guest changed for good (BOOT_<test>=own) gets a
# boot of its own; the others share one boot.
boot_mode() {
	sed -n "s/^BOOT_$1=//p" "$top/tests/guest/specs/$1.sh"
}

# What each kernel line's module provides, the one list tests are gated on
# (NEEDS_<test>="CAPABILITY...", all of them needed):
#   allocator         the cluster allocator itself, its stats, percpu state,
#                     knobs and check (6.12, 6.1)
#   mthp              large folios below PMD size (64 KiB mTHP) swapped out
#                     whole, per-order cluster lists (6.12: 6.1 has no mTHP)
#   order_lists       the nonfull/frag/full lists stock keeps per order, in
#                     debugfs and clusterswap-top (6.12)
#   idle_reclaim      the module frees idle swap cache when short of room, as
#                     6.12's stock allocator and reclaim worker do (6.1's
#                     stock scan does it in the module's fallback)
#   test_resume       the kernel's hibernation test_resume mode works with a
#                     swap device (6.12; Debian's 6.1.192 opens the resume
#                     device exclusively in that mode, swapon holds it, and
#                     stock fails with "Image not found (code -16)")
#   built_for_guest   the module the suite boots with was built outside the
#                     guest's DKMS (arm64: cross-built on the host, or by
#                     make in a guest where the host has no cross compiler
#                     of the kernel's: guest-build.sh), and DKMS in the
#                     guest must build the same one
#   preempt_dynamic   the kernel's preemption model is chosen at boot
#                     (preempt=full), as the configuration in the headers
#                     the module is built against says (the debug kernel's
#                     build tree too); Debian's amd64 kernels have it, its
#                     arm64 6.12 is built voluntary-preemption only
line_capabilities() {
	local caps=
	case $line in
	6.12) caps="allocator mthp order_lists idle_reclaim test_resume" ;;
	6.1) caps=allocator ;;
	esac
	[ "$arch" = arm64 ] && caps="$caps built_for_guest"
	grep -qx 'CONFIG_PREEMPT_DYNAMIC=y' "$build_root/usr/src/linux-headers-$kver/.config" 2>/dev/null &&
		caps="$caps preempt_dynamic"
	echo $caps
}

shared=
own=
ran=
for t in "$@"; do
	[ -f "$top/tests/guest/specs/$t.sh" ] || { echo "FAIL $label/$t: no such test"; exit 1; }
	# NEEDS_<test>=CAPABILITY: run only where the kernel line has it.
	missing=
	for need in $(directive NEEDS "$t"); do
		case " $(line_capabilities) " in
		*" $need "*) ;;
		*) missing="$missing $need" ;;
		esac
	done
	if [ -n "$missing" ]; then
		echo "SKIP $label/$t: needs${missing}, which the $label kernel does not have"
		continue
	fi
	if [ "$arch" = arm64 ] && [ -n "$(directive ROOT "$t")" ]; then
		echo "SKIP $label/$t: installs into the root on the host, which cannot run an arm64 root's DKMS (dkms_in_the_guest_builds_the_module_the_tests_load installs in the guest)"
		continue
	fi
	if [ "$(directive DEBUG "$t")" = only ] && [ "${SUITE_DEBUG:-0}" != 1 ]; then
		echo "SKIP $label/$t: for debug kernels only (make check-debug)"
		continue
	fi
	ran="$ran $t"
	if [ "$(boot_mode "$t")" = own ]; then
		own="$own $t"
		continue
	fi
	shared="$shared $t"
done
all_results=$job/results.all
: >"$all_results"
[ -n "$shared" ] && run_group $shared
for t in $own; do
	run_group "$t"
done

failed=0
for t in $ran; do
	grep -q "^[A-Z]* $t\b" "$all_results" || echo "FAIL $t: no result" >>"$all_results"
done
grep -q '^FAIL' "$all_results" && failed=1
sed "s|^\([A-Z]*\) |\1 $label/|" "$all_results"
exit $failed
