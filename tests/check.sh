#!/bin/bash
# make check / make check-host.
#
#   check.sh all     host checks, then the in-VM suite on every target kernel
#   check.sh host    host checks only: build for every kernel of each build
#                    root, the IBT check, the build-time gate, checkpatch
#
# Environment:
#   KERNELS="6.12 6.1 6.12-deb12"
#                          kernels to test (default: all three; tests/vm/targets.sh:
#                          6.12-deb12 is Debian 12's opt-in 6.12, a smoke set)
#   TESTS="a b ..."        in-VM tests to run (default: all tests/guest/specs/*.sh)
#   CLUSTERSWAP_CACHE      where build roots and outputs live (~/.cache/clusterswap)
#
# On a fresh Debian 12 machine, as root, it installs what it needs.  Ends with
# one line "N passed, N failed, N skipped" (each skip named above it, with
# its reason); exits non-zero if anything failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-all}
KERNELS=${KERNELS:-6.12 6.1 6.12-deb12}
export CLUSTERSWAP_CACHE=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
passed=0
failed=0
skipped=0
failures=
skips=
retries=
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

install_host_tools() {
	local need=
	command -v qemu-system-x86_64 >/dev/null || need="$need qemu-system-x86"
	command -v debootstrap >/dev/null || need="$need debootstrap"
	command -v cpio >/dev/null || need="$need cpio"
	command -v xz >/dev/null || need="$need xz-utils"
	command -v zstd >/dev/null || need="$need zstd"
	command -v objdump >/dev/null || need="$need binutils"
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

section "host tools and build roots"
if [ "$(id -u)" != 0 ]; then
	echo "check: must run as root (debootstrap, chroot, QEMU 9p passthrough)"
	echo "0 passed, 1 failed"
	exit 1
fi
install_host_tools || { echo "check: cannot install host tools"; echo "0 passed, 1 failed"; exit 1; }
suites=
for k in $KERNELS; do
	s=$(target_of "$k") || { echo "0 passed, 1 failed"; exit 1; }
	suites="$suites $s"
	if "$top/tests/vm/mkroot.sh" "$s"; then
		result "PASS root/$s"
	else
		result "FAIL root/$s: cannot build the $s build root"
	fi
done

section "host: build for every kernel, IBT check"
for s in $suites; do
	root=$CLUSTERSWAP_CACHE/roots/$s
	[ -d "$root/lib/modules" ] || continue
	for kver in $(ls "$root/lib/modules" | sort -V); do
		if ko=$("$top/tests/vm/build.sh" "$s" "$kver" 2>&1 | tail -n 1) && [ -f "$ko" ]; then
			result "PASS build/$kver"
			out=$(python3 "$top/tests/host/ibt_check.py" "$ko")
			if [ $? = 0 ]; then
				result "PASS ibt-check/$kver"
			else
				echo "$out"
				result "FAIL ibt-check/$kver: the module has an indirect branch or leaks resolved addresses"
			fi
		else
			"$top/tests/vm/build.sh" "$s" "$kver" 2>&1 | tail -n 30
			result "FAIL build/$kver: build failed"
		fi
	done
done

section "host: the IBT check catches a bad module"
if [ -d "$CLUSTERSWAP_CACHE/roots/trixie/lib/modules" ]; then
	kver=$(ls "$CLUSTERSWAP_CACHE/roots/trixie/lib/modules" | sort -V | tail -n 1)
	bad=$("$top/tests/vm/build.sh" trixie "$kver" "$top/tests/host/ibt-fixture" | tail -n 1)
	out=$(python3 "$top/tests/host/ibt_check.py" "$bad")
	rc=$?
	echo "$out"
	if [ $rc = 1 ] && echo "$out" | grep -q 'at ibt_bad_indirect_call' &&
		echo "$out" | grep -q 'at __traceiter_not_an_event' &&
		echo "$out" | grep -q 'read outside cs_sym_'; then
		result "PASS ibt-check/catches-bad-fixture"
	else
		result "FAIL ibt-check/catches-bad-fixture: the check did not flag all three rule breaks (exit $rc)"
	fi
fi

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
		--ignore LINUX_VERSION_CODE -f "$top"/module/*.c "$top"/module/*.S \
		"$top"/module/*/*.c "$top"/module/*/*.h "$top"/module/*/bench/*.c "$top"/include/clusterswap/*.h 2>&1 | grep -v '^total: 0 errors, 0 warnings, 0 checks')
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
	all_tests=${TESTS:-$(cd "$top/tests/guest/specs" && ls *.sh | sed 's/\.sh$//')}
	t_vm=$(date +%s)
	for s in $suites; do
		section "VM: $s"
		t_suite=$(date +%s)
		tests=$(target_tests "$s" $all_tests | tr '\n' ' ')
		[ "$tests" = "$(echo $all_tests) " ] || echo "check: $s runs: $tests(targets.sh)"
		[ -n "${tests// /}" ] || continue
		seen=
		while read -r line; do
			case $line in
			PASS\ * | FAIL\ * | SKIP\ *)
				result "$line"
				t=${line#* }
				t=${t%%:*}
				seen="$seen ${t#*/} "
				;;
			suite:\ RETRY:*)
				echo "$line"
				retries="$retries $s"
				;;
			*) echo "$line" ;;
			esac
		done < <("$top/tests/vm/suite.sh" "$s" $tests 2>&1)
		# A suite that stopped early must not pass for the tests it never ran.
		for t in $tests; do
			case $seen in
			*" $t "*) ;;
			*) result "FAIL $s/$t: no result: the suite stopped before reporting it (see above)" ;;
			esac
		done
		times="$times
  $s: $(mmss $(( $(date +%s) - t_suite )))"
	done
fi

# The bench bundle (make bench-bundle): built, unpacked and run once as an
# unprivileged user with no QEMU on the PATH, so that it cannot rot.
# CHECK_BUNDLE=0 leaves it out (a partial run for one's own iterations).
if [ "$mode" = all ] && [ "${CHECK_BUNDLE:-1}" = 1 ]; then
	section "bench bundle"
	t_bundle=$(date +%s)
	bundle_result=
	while IFS= read -r line; do
		case $line in
		PASS\ * | FAIL\ *) result "$line"; bundle_result=1 ;;
		*) echo "$line" ;;
		esac
	done < <("$top/tests/bench/bundle-check.sh" 2>&1)
	[ -n "$bundle_result" ] ||
		result "FAIL host/bench_bundle_runs_from_a_fresh_folder_without_qemu: no result: the check stopped before reporting (above)"
	times="$times
  bench bundle: $(mmss $(( $(date +%s) - t_bundle )))"
fi

section "summary"
echo "accelerator: TCG, multi-threaded, on $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores (make check stays on TCG: the suite's race windows and time limits are set for it)"
echo "time: host checks $(mmss $(( ${t_vm:-$(date +%s)} - t0 )))$times"
[ -n "$skips" ] && echo "skipped:$skips"
[ -n "$failures" ] && echo "failed:$failures"
[ -n "$retries" ] && echo "boots retried (the stock kernel died before any test ran):$retries"
echo "took $(( $(date +%s) - t0 ))s ($(mmss $(( $(date +%s) - t0 ))))"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
