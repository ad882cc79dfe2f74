#!/usr/bin/env python3
"""make bench's report: per workload and vCPU count, each arm's figures and
the ratios of on and off to unloaded, with bootstrap 95% intervals.

  report.py OUTDIR RAW...     RAW: the guests' console logs ("run ..." lines,
                              one file per vCPU count, named smpN.log)

Per run (guest.sh): wall_s sys_us pswpout pswpin allocs si_lock ops.  Derived:
  sys_us_per_page   system microseconds per page swapped out (lower is better)
  pages_per_s       pages swapped out per second of wall time (higher is better)
  ops_per_s         the workload's own rate, where it has one (stress-ng)
Per arm: the median, min and max.  Per ratio (on, redirect, off and upstream
to unloaded; on to redirect): the ratio of the medians with a percentile
bootstrap 95% interval (runs
resampled within each arm, 4000 times, fixed seed: no network, no numpy).
An interval that contains 1.0 reads "no difference".  Writes OUTDIR/runs.tsv
(every run), OUTDIR/summary.tsv, OUTDIR/sys_us_per_page.dat and its plot,
OUTDIR/sys_us_per_page.svg (written here: no gnuplot needed).

  report.py --plot DAT SVG    the plot again from a .dat file alone
"""
import os
import random
import re
import statistics
import sys

# "redirect": a passthrough bench build switched on (every call redirected
# to a replacement that only calls the original: what redirecting costs).
# "upstream": the reference kernel (Debian sid, upstream's own allocator),
# another boot: its ratio to unloaded is across boots.
ARMS = ("unloaded", "off", "redirect", "on", "upstream")
# The ratios reported, numerator and denominator: on/redirect is what the
# module's allocator costs beyond redirecting the calls.
RATIOS = (("on", "unloaded"), ("redirect", "unloaded"), ("off", "unloaded"),
          ("upstream", "unloaded"), ("on", "redirect"))
# The plot data's columns after smp, in this order (the plot reads them by
# number: tests/bench.sh).
PLOT_ARMS = ("unloaded", "off", "on", "upstream", "redirect")
# The arms a profile run may cover (guest.sh, PROFILE=1), in report order.
PROFILE_ARMS = ("unloaded", "off", "redirect", "on")
# metric: (key, better) where better is "lower" or "higher"
METRICS = (("sys_us_per_page", "lower"), ("pages_per_s", "higher"), ("ops_per_s", "higher"))


def parse(paths):
    runs = []
    for path in paths:
        smp = int(re.search(r"smp(\d+)", os.path.basename(path)).group(1))
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) != 11 or p[0] != "run":
                    continue
                wall, sys_us, out, inn = float(p[4]), int(p[5]), int(p[6]), int(p[7])
                r = {"smp": smp, "workload": p[1], "arm": p[2], "round": int(p[3]),
                     "wall_s": wall, "sys_us": sys_us, "pswpout": out, "pswpin": inn,
                     "allocs": int(p[8]), "si_lock": int(p[9]), "ops": float(p[10])}
                r["sys_us_per_page"] = sys_us / out if out else None
                r["pages_per_s"] = out / wall if wall else None
                r["ops_per_s"] = r["ops"] / wall if r["ops"] and wall else None
                runs.append(r)
    return runs


def bootstrap_ratio(num, den, rng, n=4000):
    """Percentile 95% interval of median(num)/median(den)."""
    ratios = []
    for _ in range(n):
        a = statistics.median(rng.choices(num, k=len(num)))
        b = statistics.median(rng.choices(den, k=len(den)))
        if b:
            ratios.append(a / b)
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def verdict(lo, hi, better):
    if lo <= 1.0 <= hi:
        return "no difference"
    faster = hi < 1.0 if better == "lower" else lo > 1.0
    return "better" if faster else "worse"


def read_dat(path):
    """The plot data: {workload: (arms, [(smp, [median or None per arm])])}."""
    blocks, name = {}, None
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "#":
                name = p[1].rstrip(":")
                blocks[name] = (p[3:], [])
            elif name:
                blocks[name][1].append((int(p[0]), [None if v == "NaN" else float(v) for v in p[1:]]))
    return blocks


COLOURS = ("#1f77b4", "#7f7f7f", "#d62728", "#2ca02c", "#ff7f0e")


def write_svg(blocks, path, title=""):
    """One panel per workload: median system us per page against vCPUs,
    one line per arm that has figures, both axes logarithmic (base 2 for
    vCPUs)."""
    import math
    w, h, left, top, pw, ph = 760, 300, 80, 40, 560, 200
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h * len(blocks)}" '
           f'font-family="sans-serif" font-size="12">', '<rect width="100%" height="100%" fill="white"/>']
    for i, (name, (arms, rows)) in enumerate(sorted(blocks.items())):
        y0 = i * h + top
        vals = [v for _, vs in rows for v in vs if v]
        if not vals:
            continue
        smps = [s for s, _ in rows]
        lo, hi = math.log(min(vals) * 0.9), math.log(max(vals) * 1.1)
        xlo, xhi = math.log2(min(smps)), math.log2(max(smps))
        def px(s):
            return left + (pw * (math.log2(s) - xlo) / (xhi - xlo) if xhi > xlo else pw / 2)
        def py(v):
            return y0 + ph - ph * (math.log(v) - lo) / (hi - lo)
        out.append(f'<text x="{left}" y="{y0 - 14}" font-weight="bold">{name}{title}</text>')
        out.append(f'<rect x="{left}" y="{y0}" width="{pw}" height="{ph}" fill="none" stroke="black"/>')
        for s in smps:
            out.append(f'<text x="{px(s):.1f}" y="{y0 + ph + 16}" text-anchor="middle">{s}</text>')
        out.append(f'<text x="{left + pw / 2}" y="{y0 + ph + 32}" text-anchor="middle">vCPUs</text>')
        for k in range(5):
            v = math.exp(lo + (hi - lo) * k / 4)
            out.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.3g}</text>')
        out.append(f'<text x="16" y="{y0 + ph / 2}" transform="rotate(-90 16 {y0 + ph / 2})" '
                   'text-anchor="middle">system us per page out</text>')
        for j, arm in enumerate(arms):
            pts = [(px(s), py(vs[j])) for s, vs in rows if j < len(vs) and vs[j]]
            if not pts:
                continue
            c = COLOURS[j % len(COLOURS)]
            out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="'
                       + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
            out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{c}"/>' for x, y in pts)
            out.append(f'<text x="{left + pw + 12}" y="{y0 + 14 + 16 * j}" fill="{c}">{arm}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    if sys.argv[1:2] == ["--plot"]:
        if len(sys.argv) != 4:
            print("usage: report.py --plot DAT SVG", file=sys.stderr)
            return 2
        write_svg(read_dat(sys.argv[2]), sys.argv[3])
        return 0
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    outdir = sys.argv[1]
    paths = sys.argv[2:]
    runs = parse(paths)
    if not runs:
        print("report: no runs found", file=sys.stderr)
        return 1
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(20261123)
    keys = ("smp", "workload", "arm", "round", "wall_s", "sys_us", "pswpout", "pswpin",
            "allocs", "si_lock", "ops", "sys_us_per_page", "pages_per_s")
    with open(os.path.join(outdir, "runs.tsv"), "w") as f:
        f.write("\t".join(keys) + "\n")
        for r in runs:
            f.write("\t".join("" if r[k] is None else (f"{r[k]:.3f}" if isinstance(r[k], float) else str(r[k]))
                              for k in keys) + "\n")

    groups = sorted({(r["workload"], r["smp"]) for r in runs})
    summary = []
    print("Raw runs (every one): " + os.path.join(outdir, "runs.tsv"))
    for w, smp in groups:
        sel = [r for r in runs if r["workload"] == w and r["smp"] == smp]
        rounds = max(sum(1 for r in sel if r["arm"] == a) for a in ARMS)
        print(f"\n{w} at -smp {smp} ({rounds} rounds):")
        print("| arm | sys us/page: median [min, max] | pages/s out: median [min, max] | ops/s | si->lock per 1000 allocations |")
        print("|---|---|---|---|---|")
        per_arm = {}
        for a in ARMS:
            ar = [r for r in sel if r["arm"] == a]
            per_arm[a] = ar
            if not ar:
                continue
            cells = []
            for m, _ in METRICS:
                v = [r[m] for r in ar if r[m] is not None]
                cells.append(f"{statistics.median(v):.2f} [{min(v):.2f}, {max(v):.2f}]" if v else "-")
            allocs = sum(r["allocs"] for r in ar)
            lock = f"{sum(r['si_lock'] for r in ar) * 1000 / allocs:.1f}" if allocs else "-"
            print(f"| {a} | {cells[0]} | {cells[1]} | {cells[2]} | {lock} |")
        for a, b in RATIOS:
            for m, better in METRICS:
                num = [r[m] for r in per_arm.get(a, []) if r[m] is not None]
                den = [r[m] for r in per_arm.get(b, []) if r[m] is not None]
                if len(num) < 2 or len(den) < 2:
                    continue
                ratio = statistics.median(num) / statistics.median(den)
                lo, hi = bootstrap_ratio(num, den, rng)
                v = verdict(lo, hi, better)
                print(f"  {a}/{b} {m}: {ratio:.3f} (95% CI {lo:.3f}-{hi:.3f}; {better} is better): {v}")
                summary.append((w, smp, f"{a}/{b}", m, ratio, lo, hi, v))
    with open(os.path.join(outdir, "summary.tsv"), "w") as f:
        f.write("workload\tsmp\tratio\tmetric\tvalue\tci_low\tci_high\tverdict\n")
        for w, smp, a, m, ratio, lo, hi, v in summary:
            f.write(f"{w}\t{smp}\t{a}\t{m}\t{ratio:.4f}\t{lo:.4f}\t{hi:.4f}\t{v}\n")
    # Plot data: per workload, vCPUs, then each arm's median sys us per page.
    with open(os.path.join(outdir, "sys_us_per_page.dat"), "w") as f:
        for w in sorted({g[0] for g in groups}):
            f.write(f"# {w}: smp {' '.join(PLOT_ARMS)}\n")
            for smp in sorted({g[1] for g in groups if g[0] == w}):
                vals = []
                for a in PLOT_ARMS:
                    v = [r["sys_us_per_page"] for r in runs if r["workload"] == w and r["smp"] == smp
                         and r["arm"] == a and r["sys_us_per_page"] is not None]
                    vals.append(f"{statistics.median(v):.3f}" if v else "NaN")
                f.write(f"{smp} {' '.join(vals)}\n")
            f.write("\n\n")
    write_svg(read_dat(os.path.join(outdir, "sys_us_per_page.dat")),
              os.path.join(outdir, "sys_us_per_page.svg"))
    # The module's memory, as the guest's debugfs "memory" file and
    # /sys/module/clusterswap/coresize gave it.
    for path in paths:
        with open(path) as f:
            mem = [line.split(None, 1)[1].strip() for line in f if line.startswith("memory ")]
        if mem:
            print(f"\nMemory ({os.path.basename(path)}): {mem[-1]}")
    # BENCH_PROFILE=1: where each arm's kernel time goes, arm against arm.
    for path in paths:
        report_profiles(path)
    return 0


# Symbols of an idle CPU: samples there are not work.
IDLE = {"pv_native_safe_halt", "native_safe_halt", "default_idle", "acpi_safe_halt",
        "cpu_idle_poll", "mwait_idle", "intel_idle", "poll_idle", "default_idle_call"}
PROFILE_LINE = re.compile(r"profile (\S+) (\S+) \|\s+([\d.]+)%\s+(\d+)\s+(\S+)\s+\[(.)\] (.+)$")
# A profiled run's first line; older logs have no run number and no pages,
# and those without a rate sampled at 2000 Hz.
PROFILE_HEAD = re.compile(r"profile (\S+) (\S+): \d+ samples \(every CPU, idle included\)"
                          r"(?:, run \d+, (\d+) pages out(?:, (\d+) Hz)?)?;")


def report_profiles(path):
    """Per workload, where each arm's time goes: each symbol's busy samples
    (idle left out) per 1000 pages swapped out, summed over the arm's
    profiled runs, and the symbols that grew most from unloaded to on, from
    unloaded to redirect, and from redirect to on.  At H samples a second
    a sample is 1e6 / H us of one CPU.  Logs from before the runs printed their
    pages (one run per arm) are compared by share of busy samples instead.
    A profile is a few runs: a symbol that moves by a few samples per 1000
    pages is noise."""
    prof, pages, runs, hz = {}, {}, {}, {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = PROFILE_LINE.match(line)
            if m:
                w, arm, _, n, dso, _, sym = m.groups()
                key = (dso, sym.strip())
                arms = prof.setdefault(w, {}).setdefault(arm, {})
                arms[key] = arms.get(key, 0) + int(n)
                continue
            m = PROFILE_HEAD.match(line)
            if m:
                w, arm, out, rate = m.groups()
                runs[(w, arm)] = runs.get((w, arm), 0) + 1
                hz.setdefault(w, set()).add(int(rate or 2000))
                if out is not None:
                    pages[(w, arm)] = pages.get((w, arm), 0) + int(out)
    for w, arms in prof.items():
        present = [a for a in PROFILE_ARMS if a in arms]
        if "unloaded" not in present or "on" not in present:
            continue
        busy = {a: sum(n for (d, s), n in arms[a].items() if s not in IDLE) for a in present}
        # Runs at different rates do not add up sample for sample.
        per_page = all(pages.get((w, a)) for a in present) and len(hz.get(w, ())) == 1
        if per_page:
            (rate,) = hz[w]
            unit = "samples per 1000 pages out"
            val = {a: {k: 1000.0 * n / pages[(w, a)] for k, n in arms[a].items() if k[1] not in IDLE}
                   for a in present}
        else:
            unit = "% of busy samples"
            if not all(busy[a] for a in present):
                continue
            val = {a: {k: 100.0 * n / busy[a] for k, n in arms[a].items() if k[1] not in IDLE}
                   for a in present}
        nruns = "/".join(str(runs.get((w, a), 0)) for a in present)
        print(f"\nProfile {w} ({os.path.basename(path)}, {nruns} runs of {', '.join(present)}; "
              f"not in the figures), in {unit}:")
        if per_page:
            print("  busy samples: " + ", ".join(
                f"{a} {busy[a]} for {pages[(w, a)]} pages = {1000.0 * busy[a] / pages[(w, a)]:.1f}"
                f" ({1e6 / rate * busy[a] / pages[(w, a)]:.1f} us per page)" for a in present))
        # perf files module symbols under [kernel.kallsyms] when it has
        # no path to the .ko: the module's are the cs_ ones.
        module = {a: sum(v for (d, s), v in val[a].items() if d == "[clusterswap]" or s.startswith("cs_"))
                  for a in present}
        tramp = {a: val[a].get(("[kernel.kallsyms]", "ftrace_trampoline"), 0) for a in present}
        print("  clusterswap's own symbols (cs_*): " + ", ".join(f"{a} {module[a]:.2f}" for a in present)
              + "; ftrace_trampoline: " + ", ".join(f"{a} {tramp[a]:.2f}" for a in present))
        keys = set().union(*(val[a].keys() for a in present))
        pairs = [("unloaded", "on"), ("unloaded", "redirect"), ("redirect", "on"), ("unloaded", "off")]
        for base, other in pairs:
            if base not in present or other not in present:
                continue
            moved = sorted(keys, key=lambda k: -(val[other].get(k, 0) - val[base].get(k, 0)))
            print(f"  grew most from {base} to {other} ({', '.join(present)}):")
            for k in moved[:12]:
                diff = val[other].get(k, 0) - val[base].get(k, 0)
                if diff <= 0:
                    break
                print(f"    {k[1]:42s} " + " ".join(f"{val[a].get(k, 0):7.2f}" for a in present)
                      + f"  +{diff:.2f} {k[0]}")


if __name__ == "__main__":
    sys.exit(main())
