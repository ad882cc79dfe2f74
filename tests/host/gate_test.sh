#!/bin/bash
# The build-time kernel gate (include/clusterswap/compat.h) admits exactly the
# 6.12.y and 6.1.y lines and stops the build on any other kernel with a clear
# #error.  Each case preprocesses the gate against a kernel version header
# made for that version.  Prints one PASS/FAIL line per case.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/linux"
failed=0

# gate VERSION EXPECT [CPPFLAGS]: EXPECT is "ok" or a fragment of the
# #error message; CPPFLAGS stand for the kernel's config (-DCONFIG_...),
# an x86-64 kernel's when not given.
gate() {
	local major minor sub out config=${3:--DCONFIG_X86_64=1}
	IFS=. read -r major minor sub <<<"$1"
	cat >"$tmp/linux/version.h" <<H
#define LINUX_VERSION_CODE $(( (major << 16) + (minor << 8) + sub ))
#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_MAJOR $major
#define LINUX_VERSION_PATCHLEVEL $minor
#define LINUX_VERSION_SUBLEVEL $sub
H
	out=$(gcc -E -D__ASSEMBLY__ $config -nostdinc -I"$tmp" -I"$top/include" \
		"$top/include/clusterswap/compat.h" 2>&1 >/dev/null)
	if [ "$2" = ok ]; then
		[ -z "$out" ] && { echo "PASS gate/$1${3:+ $3} builds"; return; }
		echo "FAIL gate/$1${3:+ $3}: refused: $out"
	else
		grep -q "#error.*$2" <<<"$out" && { echo "PASS gate/$1${3:+ $3} refused: $2"; return; }
		echo "FAIL gate/$1${3:+ $3}: want an #error with '$2', got: ${out:-nothing}"
	fi
	failed=1
}

gate 6.12.117 ok
gate 6.12.0 ok
gate 6.1.192 ok
gate 6.1.0 ok
gate 6.14.0 'already'
gate 6.18.3 'already'
gate 7.2.13 'already'
gate 6.13.12 'unsupported kernel'
gate 6.6.80 'unsupported kernel'
gate 6.2.0 'unsupported kernel'
gate 5.15.170 'unsupported kernel'
gate 5.10.230 'unsupported kernel'
# Debian's arm64 kernels of either line; an architecture without a folder.
gate 6.12.117 ok -DCONFIG_ARM64=1
gate 6.1.192 ok -DCONFIG_ARM64=1
gate 6.12.117 'unsupported architecture' -DCONFIG_RISCV=1
# Debian's rt-amd64 flavour of either line.
gate 6.12.117 'PREEMPT_RT kernels are not supported' '-DCONFIG_X86_64=1 -DCONFIG_PREEMPT_RT=1'
gate 6.1.192 'PREEMPT_RT kernels are not supported' '-DCONFIG_X86_64=1 -DCONFIG_PREEMPT_RT=1'
exit $failed
