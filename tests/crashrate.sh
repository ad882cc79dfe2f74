#!/bin/bash
# make crash-rate: how often a guest dies under multi-threaded TCG while
# kernel text is patched beside swapping, with clusterswap and without it.
#
# Each boot runs one arm for CRASHRATE_SECONDS (default 90) of cycles
# (crashrate/specs/crash_rate_cycles.sh): load an ftrace user on the
# functions clusterswap hooks, put a kprobe event on put_swap_folio and take
# it off, unload; 2 threads swap through zram in a memory cgroup meanwhile.
# An arm is WHAT@QEMU[/single]:
#   WHAT    module: the ftrace user is clusterswap itself, switched on;
#           stock: the squatter fixture on the same functions, doing
#           nothing, so stock code swaps (the control)
#   QEMU    7.2: the host's (Debian 12); 10: the suite's (vm/emulator.sh)
#   single  single-threaded TCG (otherwise multi-threaded)
# A boot ends when its time is up or the guest dies; each boot's cycles, and
# whether and how it died, go to a row of runs.tsv.  Arms alternate boot by
# boot, their order turned each round, CRASHRATE_ROUNDS rounds (default 5).
# The report (crashrate/report.py) gives each arm's deaths per 1000 cycles
# with an exact Poisson 95% interval, and each arm against its emulator's
# stock arm as a rate ratio with its exact conditional interval.
#
# Environment: CRASHRATE_TARGET (default trixie), CRASHRATE_ARMS (default
# "module@7.2 stock@7.2 module@7.2/single module@10 stock@10"),
# CRASHRATE_ROUNDS, CRASHRATE_SECONDS, CRASHRATE_OUT (default
# build/crashrate/<line>).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
target=${CRASHRATE_TARGET:-trixie}
arms=${CRASHRATE_ARMS:-module@7.2 stock@7.2 module@7.2/single module@10 stock@10}
rounds=${CRASHRATE_ROUNDS:-5}
seconds=${CRASHRATE_SECONDS:-90}
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
. "$here/vm/targets.sh"

"$here/vm/mkroot.sh" "$target"
suite=$(target_root "$target")
root=$cache/roots/$suite
kver=$(root_kernel "$root" "$(target_flavour "$target")")
label=$(target_label "$target" "$kver")
line=$(echo "$kver" | cut -d. -f1,2)
out=${CRASHRATE_OUT:-$top/build/crashrate/$label}
job=$(SUITE_PREPARE_ONLY=1 SUITE_SPECS="$here/crashrate/specs" "$here/vm/suite.sh" "$target" | tail -n 1)
[ -f "$job/run.sh" ] || { echo "crashrate: no job prepared"; exit 1; }

# The squatter takes what clusterswap hooks on this line: module/<line>/hooks.c.
sed -n 's/.*{ CS_SYM_\([a-z_0-9]*\).*/\1/p' "$top/module/$line/hooks.c" | paste -sd' ' >"$job/crashrate_targets"
echo "$seconds" >"$job/crashrate_seconds"
BAD_LOG=$(sed -n "s/^BAD_LOG='\\(.*\\)'\$/\\1/p" "$top/tests/guest/lib.sh")

rm -rf "$out"
mkdir -p "$out/deaths"
{
	echo "# crash-rate probe: $label ($kver), $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD || echo +changes), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# host: $(nproc) CPUs; QEMU 7.2: $(qemu-system-x86_64 --version | head -n 1); QEMU 10: $("$("$here/vm/emulator.sh" 2>/dev/null)" --version | head -n 1)"
	echo "# squatter targets: $(cat "$job/crashrate_targets")"
	printf 'round\tarm\ttcg\tseconds\tcycles\tdied\tverdict\tfirst_bad\trip\n'
} >"$out/runs.tsv"

# run_arm ROUND ARM: one boot of ARM; a row of runs.tsv.
run_arm() {
	local round=$1 arm=$2 what=${2%%@*} emu=${2#*@} tcg=multi start rc=0 cycles died=no verdict bad rip
	local qemu= cpu=
	case $emu in
	*/single) tcg=single; emu=${emu%/single} ;;
	esac
	case $emu in
	7.2) qemu=qemu-system-x86_64; cpu=max,-la57,-erms ;;
	10) qemu=$("$here/vm/emulator.sh"); cpu= ;;
	*) echo "crashrate: no emulator '$emu' in arm $arm"; exit 1 ;;
	esac
	echo "crash_rate_$what" >"$job/tests"
	echo "crashrate: round $round, $arm ($tcg-threaded TCG)"
	start=$(date +%s)
	VM_QEMU=$qemu VM_CPU=$cpu VM_TCG_THREAD=$tcg "$here/vm/run-vm.sh" "$suite" "$kver" "$job" $((seconds + 300)) >/dev/null 2>&1 || rc=$?
	cycles=$(tr -d '\r' <"$job/serial.log" | sed -n 's/.*crashrate: cycle \([0-9]*\)$/\1/p' | tail -n 1)
	verdict=$(head -n 1 "$job/out/results" 2>/dev/null | cut -d' ' -f1) || true
	[ "$rc" = 0 ] || died=yes
	bad=$(tr -d '\r' <"$job/serial.log" | grep -aE -m 1 "$BAD_LOG" | sed 's/^\[ *[0-9.]*\] //') || true
	rip=$(tr -d '\r' <"$job/serial.log" | grep -a -m 1 'RIP: 0010:' | sed 's/.*RIP: 0010://') || true
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$arm" "$tcg" $(( $(date +%s) - start )) \
		"${cycles:-0}" "$died" "${verdict:-none}" "${bad:--}" "${rip:--}" >>"$out/runs.tsv"
	echo "crashrate: ${cycles:-0} cycles, died: $died${bad:+ ($bad${rip:+ at $rip})}"
	if [ "$died" = yes ] || [ -n "$bad" ]; then
		tr -d '\r' <"$job/serial.log" | grep -a -A 60 -m 1 -E "$BAD_LOG" \
			>"$out/deaths/$round-${arm//\//-}.txt" || cp "$job/serial.log" "$out/deaths/$round-${arm//\//-}.txt"
	fi
}

set -- $arms
for round in $(seq 1 "$rounds"); do
	# The arms' order turned by one each round.
	shift_by=$(( (round - 1) % $# ))
	order="${*:shift_by+1} ${*:1:shift_by}"
	for arm in $order; do
		run_arm "$round" "$arm"
	done
done
python3 "$here/crashrate/report.py" "$out/runs.tsv" | tee "$out/report.txt"
