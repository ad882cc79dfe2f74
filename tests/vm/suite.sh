#!/bin/bash
# Run the in-VM suite on one suite's kernel (the newest in its build root).
#
#   suite.sh SUITE TEST...
#
# Builds the module and the test programs in the build root, boots the stock
# kernel in QEMU, runs the tests (tests/guest/t_*.sh) and prints one line per
# test: "PASS <line>/<test>" or "FAIL <line>/<test>: reason".  A failing test's
# output and the guest's kernel log tail are printed above its line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
suite=${1:?usage: suite.sh SUITE TEST...}
shift
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
root=$cache/roots/$suite
kver=$(ls "$root/lib/modules" | sort -V | tail -n 1)
line=$(echo "$kver" | cut -d. -f1,2)
job=$cache/jobs/$suite

rm -rf "$job"
mkdir -p "$job/bin"
ko=$("$here/build.sh" "$suite" "$kver" | tail -n 1)
cp "$ko" "$job/clusterswap.ko"

# Test programs: static, built with the suite's own compiler.
rm -rf "$root/tmp/cs-guest"
mkdir -p "$root/tmp/cs-guest"
cp "$top"/tests/guest/*.c "$root/tmp/cs-guest/"
chroot "$root" sh -c 'cd /tmp/cs-guest && for c in *.c; do
	gcc -O2 -Wall -Wextra -Werror -static -pthread -o "${c%.c}" "$c" || exit 1; done'
for c in "$top"/tests/guest/*.c; do
	b=$(basename "$c" .c)
	cp "$root/tmp/cs-guest/$b" "$job/bin/"
done

cp "$top"/tests/guest/lib.sh "$top"/tests/guest/t_*.sh "$job/"
cp "$top/tests/guest/suite.sh" "$job/run.sh"
echo "$@" >"$job/tests"

# Each test bounds itself; the VM as a whole gets their sum plus boot time.
limit=60
for t in "$@"; do
	[ -f "$top/tests/guest/t_$t.sh" ] || { echo "FAIL $line/$t: no such test"; exit 1; }
	t_limit=$(sed -n "s/^TIMEOUT_$t=//p" "$top/tests/guest/t_$t.sh")
	limit=$((limit + ${t_limit:-120} + 20))
done

echo "suite: booting $kver with: $*"
start=$(date +%s)
if ! "$here/run-vm.sh" "$suite" "$kver" "$job" "$limit"; then
	[ -f "$job/out/console.log" ] && tail -n 60 "$job/out/console.log"
	for t in "$@"; do
		grep -q "^[A-Z]* $t\b" "$job/out/results" 2>/dev/null || echo "FAIL $line/$t: the guest did not run it to the end"
	done
	sed "s|^\([A-Z]*\) |\1 $line/|" "$job/out/results" 2>/dev/null || true
	exit 1
fi
echo "suite: $kver ran in $(( $(date +%s) - start ))s (boot and tests)"
failed=0
while read -r verdict rest; do
	t=${rest%%:*}
	if [ "$verdict" = FAIL ]; then
		failed=1
		echo "--- $line/$t output and kernel log:"
		cat "$job/out/$t.log" 2>/dev/null
		tail -n 30 "$job/out/$t.dmesg" 2>/dev/null
	fi
done <"$job/out/results"
for t in "$@"; do
	grep -q "^[A-Z]* $t\b" "$job/out/results" || { echo "FAIL $line/$t: no result"; failed=1; }
done
sed "s|^\([A-Z]*\) |\1 $line/|" "$job/out/results"
exit $failed
