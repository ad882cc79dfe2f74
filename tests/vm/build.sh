#!/bin/bash
# Build clusterswap.ko inside a suite's build root, with that kernel's own
# compiler and headers.
#
#   build.sh SUITE [KVER [SRCDIR]]   KVER defaults to the root's newest
#                                    generic (amd64 flavour) kernel;
#                                    SRCDIR builds another module (a test fixture)
#
# BUILD_SELFTEST=1 makes a test build of clusterswap (make CS_SELFTEST=y:
# self-tests of the pure logic at load), named clusterswap-selftest.ko;
# BUILD_BENCH=passthrough make bench's passthrough build (make
# CS_BENCH=passthrough), named clusterswap-passthrough.ko.
#
# Prints the path of the built module on the last line.  The build happens in a
# copy of the sources inside the root; the repository is never written.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
suite=${1:?usage: build.sh SUITE [KVER]}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$suite
[ -d "$root/lib/modules" ] || { echo "build.sh: no build root for $suite (run mkroot.sh)" >&2; exit 1; }
. "$here/targets.sh"
kver=${2:-$(root_kernel "$root")}
[ -d "$root/usr/src/linux-headers-$kver" ] || { echo "build.sh: no headers for $kver in $suite" >&2; exit 1; }

src=${3:-}
selftest=${BUILD_SELFTEST:+-selftest}${BUILD_BENCH:+-$BUILD_BENCH}
work=/tmp/clusterswap-build-$kver${src:+-$(basename "$src")}$selftest
# One build at a time in a work folder: two suites of one kernel may run
# side by side (check.sh: the arm64 DKMS test beside its target's tests).
exec 9>"$root$work.lock"
flock 9
rm -rf "$root$work"
mkdir -p "$root$work"
if [ -n "$src" ]; then
	cp -a "$src/." "$root$work/"
else
	"$top/tests/ship-tree.sh" "$root$work"
fi
# A kernel of another architecture than the root's (arm64 headers in an
# amd64 root: root-cross.sh) is built for as a Debian cross build, with
# dpkg-architecture's variables: Debian 12's headers pick their compiler
# by them (targets.sh: cross_make_env).
read -ra cross <<<"$(cross_make_env "$(target_arch "$suite")" "$kver")"
# -j: the module's objects compile side by side, one per host core.
if ! chroot "$root" env "${cross[@]}" make -s -j"$(nproc)" -C "/usr/src/linux-headers-$kver" M="$work" \
	${BUILD_SELFTEST:+CS_SELFTEST=y} ${BUILD_BENCH:+CS_BENCH=$BUILD_BENCH} modules \
	>"$root$work/build.log" 2>&1; then
	cat "$root$work/build.log" >&2
	echo "build.sh: build for $kver failed" >&2
	exit 1
fi
# Warnings fail the build: a module for production kernels compiles clean.
if grep -E 'warning:' "$root$work/build.log" >&2; then
	echo "build.sh: build for $kver has warnings" >&2
	exit 1
fi
out=$cache/out/$suite/$kver
mkdir -p "$out"
ko=$(cd "$root$work" && ls *.ko)
# Renamed into place: a suite copying the module built before reads it whole.
cp "$root$work/$ko" "$out/${ko%.ko}$selftest.ko.new"
mv "$out/${ko%.ko}$selftest.ko.new" "$out/${ko%.ko}$selftest.ko"
echo "$out/${ko%.ko}$selftest.ko"
