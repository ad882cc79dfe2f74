#!/bin/bash
# make bench: the true stock kernel against clusterswap, on the same VM and the
# same workloads, in one run.  For each kernel line (Debian 13's stock 6.12,
# Debian 12's stock 6.1) boots the kernel in QEMU once per vCPU count; in
# each boot every workload runs BENCH_ROUNDS rounds of the three arms, their
# order turned by one each round (tests/bench/arms.sh, tests/bench/guest.sh):
# unloaded (the module not loaded), off (loaded, enabled=0), on (enabled=1).
#
#   verifier  threads (one per vCPU) write, swap and verify pages through zram
#             in a memory cgroup
#   pageout   one process per vCPU: mmap, fill, MADV_PAGEOUT, touch back
#             (verified), munmap, on a brd RAM disk (no compression: the
#             allocator's own cost)
#   stressng  Debian's stress-ng --pageswap --verify, bogo ops per second
#   single    one thread, sequential: the no-regression guard
#
# With the 6.12 line, a reference column: the same workloads, rounds and vCPU
# counts on Debian sid's kernel (7.x, upstream's own cluster allocator, no
# module), booted with the trixie root's userland (tests/vm/reference-root.sh),
# reported as the arm "upstream" beside 6.12's; being another boot of
# another kernel, its ratio to 6.12's stock is across boots.
#
# Environment: BENCH_KERNELS (default "6.12 6.1"), BENCH_ROUNDS (default 7),
# BENCH_REFERENCE (default 1 with 6.12; 0 leaves the sid kernel out),
# BENCH_SMP (default "1 2 4 8"),
# BENCH_QUICK=1 (3 rounds at -smp 2: a look, not a result),
# BENCH_REPORT_ONLY=1 (the report and plot again from the last run's logs),
# BENCH_BOOTS=one|arm (one boot per vCPU count, or one per arm and round:
# boots_of below; default arm on 6.1, one on 6.12),
# BENCH_ADD=1 (keep the last run's boots and add this run's vCPU counts to
# them: a series taken in parts; a vCPU count run again replaces its boot),
# BENCH_PROFILE=1 (after the rounds, a perf profile of each workload,
# in each arm, printed as "profile" lines and compared arm against arm, in
# samples per 1000 pages swapped out, in the report; not counted in the
# figures), BENCH_PROFILE_RUNS (profiled runs per arm, summed; default 1),
# BENCH_PROFILE_SMP (the vCPU counts whose boots are profiled; default:
# every one),
# BENCH_WORKLOADS (default "verifier pageout stressng single"; stressng and
# single run only at -smp 2, the series is verifier and pageout),
# BENCH_REDIRECT (default 1: a fourth arm, "redirect", the passthrough bench
# build, module/bench/ and module/<line>/bench/, switched on, its
# replacements only calling the originals: what redirecting the calls costs
# before the allocator does anything; 0 leaves it out).
# Reports system microseconds per page swapped out and pages out per second,
# per arm median [min, max], and on, redirect and off to unloaded, and on to
# redirect, as ratios of medians with bootstrap 95% intervals
# (tests/bench/report.py); every run's
# raw figures go to build/bench/<line>/runs.tsv, and
# build/bench/<line>/sys_us_per_page.svg plots the series (report.py).  Every
# run verifies its pages; a bad page stops the benchmark.  Last, the si->lock
# scaling projection that make check-debug measured (build/lock-projection.txt).
#
# make bench-locks (BENCH_LOCKS=1): instead of the speed arms, how often
# si->lock is taken per allocation on each workload of a mix (roomy device,
# nearly full device, 64 KiB mTHP, swapoff churn, fork/COW, pageout), stock's
# lower bound (kprobes) beside the module's count by cause
# (tests/bench/locks.sh); one boot per vCPU count (default -smp 2), its log
# in build/bench/<line>/locks-smp<N>.log, the table in locks.txt.
#
# The guest runs on KVM where /dev/kvm boots a stock guest (tests/vm/accel.sh
# probes it once per host), else on TCG (software emulation), where the
# absolute figures are far below real hardware; only ratios taken in the same
# boot on the same workload mean anything.  A guest with more vCPUs than the
# host's 2 cores exaggerates lock contention (preempted lock holders).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm/targets.sh"
. "$top/tests/bench/arms.sh"
cache=${CLUSTERSWAP_CACHE:-$HOME/.cache/clusterswap}
export CLUSTERSWAP_CACHE=$cache
rounds=${BENCH_ROUNDS:-7}
smps=${BENCH_SMP:-1 2 4 8}
locks=${BENCH_LOCKS:-0}
reference=${BENCH_REFERENCE:-1}
[ "$locks" = 1 ] && reference=0
# BENCH_QUICK=1: a short run, 3 rounds at -smp 2 (unless set otherwise).
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	rounds=${BENCH_ROUNDS:-3}
	smps=${BENCH_SMP:-2}
fi
workloads=${BENCH_WORKLOADS:-verifier pageout stressng single}
if [ "$locks" = 1 ]; then
	smps=${BENCH_SMP:-2}
	workloads=${BENCH_WORKLOADS:-roomy nearly_full mthp swapoff cow pageout}
fi
kernels=${BENCH_KERNELS:-6.12 6.1}
[ "$(id -u)" = 0 ] || { echo "make bench: run as root (debootstrap, chroot, QEMU)"; exit 1; }
t0=$(date +%s)
# KVM where a stock guest boots with it (probed once per host), else TCG;
# each line's folder keeps what its boots ran on ("accel"), for the report.
if [ "${BENCH_REPORT_ONLY:-0}" != 1 ]; then
	read -r accel accel_why < <("$top/tests/vm/accel.sh")
	export VM_ACCEL=$accel
	ran_on="${accel^^} on $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
	echo "bench: $ran_on${accel_why:+ ($accel_why)}"
fi

# suite_of LINE: the Debian release whose stock kernel the line is.
suite_of() {
	case $1 in
	6.12) echo trixie ;;
	6.1) echo bookworm ;;
	*) echo "bench: no such kernel line '$1' (BENCH_KERNELS: 6.12 6.1)" >&2; return 1 ;;
	esac
}

# out_of LINE: where LINE's logs, report and plot go.
out_of() {
	echo "$top/build/bench/$1"
}

# workloads_at SMP: the workloads a boot with SMP vCPUs runs, each with a
# leading space (stressng and single only at -smp 2, except in bench-locks).
workloads_at() {
	local x
	for x in $workloads; do
		case $x in
		stressng | single) [ "$1" = 2 ] || [ "$locks" = 1 ] && printf ' %s' "$x" ;;
		*) printf ' %s' "$x" ;;
		esac
	done
	return 0
}

# run_line LINE: every vCPU count's boot on LINE's stock kernel, its console
# logs into out_of LINE.  Exits on a guest that fails or a bad page.
run_line() {
	local line=$1 out suite root kver job ko p smp w x profile log round arm arms
	out=$(out_of "$line")
	suite=$(suite_of "$line")
	"$top/tests/vm/mkroot.sh" "$suite"
	"$top/tests/vm/root-warm.sh" "$suite"
	root=$cache/roots/$suite
	kver=$(root_kernel "$root")
	if ! [ -x "$root/usr/bin/stress-ng" ] || ! [ -e "$root/usr/bin/perf" ]; then
		echo "bench: installing stress-ng and perf into the $suite root"
		mount -t proc proc "$root/proc"
		DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends \
			stress-ng linux-perf >/dev/null ||
			{ umount -l "$root/proc"; echo "bench: cannot install stress-ng and linux-perf"; exit 1; }
		chroot "$root" apt-get clean
		umount -l "$root/proc"
	fi

	job=$cache/jobs/bench-$suite
	rm -rf "$job"
	mkdir -p "$job/bin"
	echo "bench: building clusterswap.ko and the workloads for $kver"
	ko=$("$top/tests/vm/build.sh" "$suite" "$kver" | tail -n 1)
	cp "$ko" "$job/clusterswap.ko"
	rm -rf "$root/tmp/cs-bench"
	mkdir -p "$root/tmp/cs-bench"
	progs="verifier pageout"
	[ "$locks" = 1 ] && progs="$progs cow mthpchurn"
	for p in $progs; do
		cp "$top/tests/guest/programs/$p.c" "$root/tmp/cs-bench/"
	done
	for p in $progs; do
		chroot "$root" gcc -O2 -static -pthread -o /tmp/cs-bench/$p /tmp/cs-bench/$p.c
		cp "$root/tmp/cs-bench/$p" "$job/bin/"
	done
	arms="unloaded off on"
	if [ "${BENCH_REDIRECT:-1}" = 1 ] && [ "$locks" != 1 ]; then
		ko=$(BUILD_BENCH=passthrough "$top/tests/vm/build.sh" "$suite" "$kver" | tail -n 1)
		cp "$ko" "$job/clusterswap-passthrough.ko"
		arms="unloaded off redirect on"
	fi
	cp "$top/tests/guest/lib.sh" "$top/tests/bench/arms.sh" "$job/"
	if [ "$locks" = 1 ]; then
		cp "$top/tests/bench/locks.sh" "$job/run.sh"
	else
		cp "$top/tests/bench/guest.sh" "$job/run.sh"
	fi
	echo "$kver" >"$out/kernel"
	echo "$ran_on" >"$out/accel"

	for smp in $smps; do
		w=$(workloads_at "$smp")
		[ -n "$w" ] || continue
		profile=${BENCH_PROFILE:-0}
		case " ${BENCH_PROFILE_SMP:-$smp} " in
		*" $smp "*) ;;
		*) profile=0 ;;
		esac
		log=$out/smp$smp.log
		[ "$locks" = 1 ] && log=$out/locks-smp$smp.log
		echo
		if [ "$locks" = 1 ]; then
			echo "bench: $kver at -smp $smp:$w, si->lock per allocation, stock and on"
			boot_bench "$smp" "$w" "$rounds" 1 "" "$profile" >"$log"
		elif [ "$(boots_of "$line")" = arm ]; then
			echo "bench: $kver at -smp $smp:$w, $rounds rounds of ${arms// /, } (order rotated), a boot per arm and round"
			: >"$log"
			for round in $(seq 1 "$rounds"); do
				for arm in $(arms_of_round "$round" $arms); do
					boot_bench "$smp" "$w" 1 "$round" "$arm" 0 >>"$log"
				done
			done
			# The profile's runs load and unload the module in one boot.
			[ "$profile" = 1 ] && boot_bench "$smp" "$w" 0 1 "" 1 >>"$log"
		else
			echo "bench: $kver at -smp $smp:$w, $rounds rounds of ${arms// /, } (order rotated)"
			boot_bench "$smp" "$w" "$rounds" 1 "" "$profile" >"$log"
		fi
		cat "$log"
	done
}

# boots_of LINE: how LINE's arms are booted: "one" boot per vCPU count, the
# module loaded and unloaded between runs while nothing swaps, or a boot per
# "arm" and round (the module loaded, if at all, right after boot).  6.1
# boots per arm: twice in about 40 stressng runs of its quick bench, a
# guest that had just loaded the module reported a soft lockup of a CPU
# spinning at free_swap_slot+0x0, where memory already held the call ftrace
# wrote, which is how QEMU 7.2's multi-threaded TCG's lost cross-CPU code
# patching looks (tests/vm/emulator.sh).  BENCH_BOOTS=one|arm sets it for every line.
boots_of() {
	case ${BENCH_BOOTS:-} in
	one | arm) echo "$BENCH_BOOTS" ;;
	*) [ "$1" = 6.1 ] && echo arm || echo one ;;
	esac
}

# bench_conf WORKLOADS ROUNDS FIRST_ROUND ARMS PROFILE: the guest's
# bench.conf in $job (tests/bench/guest.sh reads it).  ARMS empty: every
# arm of $arms in turn.
bench_conf() {
	cat >"$job/bench.conf" <<CONF
WORKLOADS="$1"
ARMS_ALL="${arms:-unloaded off on}"
ROUNDS=$2
ROUND_FIRST=$3
SEED_FIRST=$(( ($3 - 1) * 100 + 1 ))
${4:+ARMS="$4"}
MEMCG_MIB=96
VERIFIER_MIB=384
SINGLE_MIB=192
PAGEOUT_MIB=128
PAGEOUT_LOOPS=3
STRESS_SECONDS=15
PROFILE=$5
PROFILE_RUNS=${BENCH_PROFILE_RUNS:-1}
CONF
}

# boot_bench SMP WORKLOADS ROUNDS FIRST_ROUND ARMS PROFILE: one boot of the
# job run_line prepared (uses its suite, kver and job), its console on
# stdout.  ARMS empty: every arm in turn.  Exits on a guest that fails.
boot_bench() {
	bench_conf "$2" "$3" "$4" "$5" "$6"
	# loglevel=7: the whole kernel log on the console, for a guest that
	# dies (run-vm.sh already panics it on a soft lockup).
	VM_SMP=$1 VM_APPEND="${VM_APPEND:-} loglevel=7" \
		"$top/tests/vm/run-vm.sh" "$suite" "$kver" "$job" 7200 >&2 ||
		{ echo "bench: the guest did not finish; the end of its console:" >&2; tail -n 80 "$job/serial.log" >&2; exit 1; }
	cat "$job/out/console.log"
	[ "$(cat "$job/out/rc")" = 0 ] || { echo "bench: failed in the guest" >&2; exit 1; }
}

# run_reference LINE: the reference kernel's boots, one per vCPU count, with
# LINE's workloads and rounds, the arm "unloaded" renamed "upstream", into
# out_of LINE as ref-smp<N>.log.  Uses the job folder run_line left (its
# module and workloads).
run_reference() {
	local out job kver merged initrd smp
	out=$(out_of "$1")
	job=$cache/jobs/bench-trixie
	read -r kver merged < <("$top/tests/vm/reference-root.sh" mount | tail -n 1)
	initrd=$(VM_ROOT=$merged "$top/tests/vm/initramfs.sh" trixie "$kver")
	for smp in $smps; do
		w=$(workloads_at "$smp")
		[ -n "$w" ] || continue
		bench_conf "$w" "$rounds" 1 unloaded 0
		echo
		echo "bench: reference $kver (Debian sid, upstream's allocator) at -smp $smp:$w, $rounds rounds"
		VM_SMP=$smp VM_ROOT=$merged VM_KERNEL=$merged/lib/modules/$kver/vmlinuz VM_INITRD=$initrd \
			VM_APPEND="${VM_APPEND:-} loglevel=7" \
			"$top/tests/vm/run-vm.sh" trixie "$kver" "$job" 7200 ||
			{ "$top/tests/vm/reference-root.sh" umount; echo "bench: the reference guest did not finish; the end of its console:"; tail -n 80 "$job/serial.log"; exit 1; }
		sed 's/^run \([^ ]*\) unloaded /run \1 upstream /' "$job/out/console.log" >"$out/ref-smp$smp.log"
		echo "$kver" >"$out/reference"
		cat "$out/ref-smp$smp.log"
		[ "$(cat "$job/out/rc")" = 0 ] || { "$top/tests/vm/reference-root.sh" umount; echo "bench: failed in the reference guest"; exit 1; }
	done
	"$top/tests/vm/reference-root.sh" umount
}

# report_locks LINE: the si->lock table from LINE's locks logs: per workload
# and vCPU count, holds per 1000 allocations, stock's lower bound and the
# module's, with the module's causes.
report_locks() {
	local out
	out=$(out_of "$1")
	echo
	echo "bench-locks: $(cat "$out/kernel" 2>/dev/null || echo "the $1 line"), si->lock holds per 1000 allocations (stock: at least; module: counted)"
	for f in "$out"/locks-smp*.log; do
		awk -v smp="${f##*locks-smp}" '
		function pm(n, d) { return d ? sprintf("%.1f", n * 1000 / d) : "-" }
		$1 == "locks" && $3 == "stock" {
			st[$2] = sprintf("%-12s -smp %-2s stock %8d folios %8d out  >= %6s alloc + %6s free", $2, smp + 0, $4, $5, pm($6, $4), pm($7, $4)) }
		$1 == "locks" && $3 == "on" {
			why = ""
			for (i = 8; i <= NF; i++) { split($i, kv, "="); if (kv[2] > 0) why = why " " $i }
			print st[$2]
			printf "%-12s -smp %-2s on    %8d folios %8d out     %6s alloc + %6s free  (%s)\n", $2, smp + 0, $4, $5, pm($6, $4), pm($7, $4), substr(why, 2) }
		$1 == "locks:" { print }' "$f"
	done | tee "$out/locks.txt"
}

# report_line LINE: the figures, the ratios and the plot from LINE's logs.
report_line() {
	local out
	out=$(out_of "$1")
	echo
	echo "bench: $(cat "$out/kernel" 2>/dev/null || echo "the $1 line"), $(cat "$out/accel" 2>/dev/null || echo "TCG (not recorded)"); arms interleaved, $([ "$(boots_of "$1")" = arm ] && echo "a boot per arm and round" || echo "in one boot per vCPU count")"
	[ -f "$out/reference" ] && echo "bench: reference arm \"upstream\": $(cat "$out/reference") (Debian sid), booted separately with the same userland"
	python3 "$top/tests/bench/report.py" "$out" "$out"/smp*.log $(ls "$out"/ref-smp*.log 2>/dev/null) | tee "$out/report.txt"
	echo "plot: $out/sys_us_per_page.svg"
}

for line in $kernels; do
	suite_of "$line" >/dev/null || exit 1
done
for line in $kernels; do
	dir=$(out_of "$line")
	# BENCH_REPORT_ONLY=1: the report and plot again, from the last run's logs.
	if [ "${BENCH_REPORT_ONLY:-0}" = 1 ]; then
		[ -n "$(ls "$dir"/smp*.log "$dir"/locks-smp*.log 2>/dev/null)" ] ||
			{ echo "bench: no $dir/smp*.log to report"; exit 1; }
	else
		# BENCH_ADD=1: keep the boots of an earlier run (other vCPU
		# counts) and report them with these, as one series.
		if [ "$locks" = 1 ]; then
			rm -f "$dir"/locks-smp*.log
		else
			[ "${BENCH_ADD:-0}" = 1 ] || rm -rf "$dir"
		fi
		mkdir -p "$dir"
		run_line "$line"
		if [ "$line" = 6.12 ] && [ "$reference" = 1 ]; then
			run_reference "$line"
		fi
	fi
done
for line in $kernels; do
	if [ "$locks" = 1 ]; then
		report_locks "$line"
	else
		report_line "$line"
	fi
done
[ "$locks" = 1 ] && { echo "took $(( $(date +%s) - t0 ))s"; exit 0; }
# The scaling projection: si->lock acquisitions and hold times need the
# debug kernel's lock statistics, which the stock kernels above lack.
echo
if [ -f "$top/build/lock-projection.txt" ]; then
	echo "projection: the CPU count at which si->lock would be held all the time,"
	echo "projection: 1 / (acquisitions per CPU-second x mean hold):"
	sed 's/^/projection: /' "$top/build/lock-projection.txt"
else
	echo "projection: none yet; TESTS=si_lock_contention_gone make check-debug measures it"
fi
echo "took $(( $(date +%s) - t0 ))s"
