#!/bin/bash
# make check's test of the bench bundle: build it (make bench-bundle), unpack
# it into a fresh folder as an unprivileged user, and run it there with a
# PATH that holds no QEMU: -smp 2, one round of two arms, the smallest
# verifier run, and one profiled run of each arm with the call chains of
# zram's compressor, which every such run samples (the bundled perf).
# Prints one PASS or FAIL line.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
name=bench_bundle_runs_from_a_fresh_folder_without_qemu
fail() {
	echo "FAIL host/$name: $*"
	exit 1
}

"$top/tests/bench/bundle.sh" || fail "make bench-bundle failed (above)"
archive=$top/build/clusterswap-bench.tar.xz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A PATH with everything of /usr/bin but QEMU.
mkdir "$tmp/path" "$tmp/run"
for f in /usr/bin/* /bin/*; do
	case ${f##*/} in
	qemu*) ;;
	*) [ -e "$tmp/path/${f##*/}" ] || ln -s "$f" "$tmp/path/${f##*/}" ;;
	esac
done
chown nobody "$tmp/run"
chmod 755 "$tmp"
as_nobody() {
	setpriv --reuid nobody --regid nogroup --clear-groups env -i PATH="$tmp/path" HOME="$tmp/run" "$@"
}
as_nobody sh -c 'command -v qemu-system-x86_64' >/dev/null && fail "the test's PATH still finds QEMU"
as_nobody tar -xJf "$archive" -C "$tmp/run" || fail "cannot unpack $archive as nobody"
t0=$(date +%s)
as_nobody timeout 900 "$tmp/run/clusterswap-bench/run" --smp 2 --rounds 1 --arms unloaded,on \
	--workloads verifier --size small --profile 1 --profile-callers LZ4_compress_fast_extState \
	--out "$tmp/run/out" >"$tmp/run.log" 2>&1
rc=$?
sed 's/^/  /' "$tmp/run.log"
[ "$rc" = 0 ] || fail "./run exited $rc"
report=$tmp/run/out/report.txt
[ -f "$report" ] || fail "no report.txt"
grep -q '^accelerator: ' "$report" || fail "the report does not name the accelerator"
grep -q '^host: .*cores' "$report" || fail "the report does not name the host's CPU and cores"
for arm in unloaded on; do
	grep -q "^| $arm | " "$report" || fail "the report has no $arm arm"
done
[ -s "$tmp/run/out/sys_us_per_page.svg" ] || fail "no plot"
grep -q '^Profile verifier .* runs of unloaded, on;' "$report" || fail "the report has no profile of both arms"
for arm in unloaded on; do
	grep -q "^callers verifier $arm |.*---[A-Za-z_]" "$tmp/run/out/smp2.log" ||
		fail "no call chains in the $arm arm's profile"
done
echo "PASS host/$name: $(( $(stat -c %s "$archive") >> 20 )) MiB, ran in $(( $(date +%s) - t0 )) s"
