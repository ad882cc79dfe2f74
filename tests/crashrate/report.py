#!/usr/bin/env python3
"""The crash-rate probe's report (tests/crashrate.sh): deaths per 1000 cycles
for each arm, with exact Poisson 95% intervals, and each arm's rate against
its emulator's control (stock@QEMU) as a ratio with its exact interval conditional on the
total deaths (binomial, Clopper-Pearson).

    report.py runs.tsv
"""
import math
import sys


def poisson_cdf(k, mu):
    """P(X <= k) for X ~ Poisson(mu)."""
    if mu == 0:
        return 1.0
    term = math.exp(-mu)
    total = term
    for i in range(1, k + 1):
        term *= mu / i
        total += term
    return min(total, 1.0)


def bisect(f, lo, hi):
    """The root of an increasing f on [lo, hi]."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def poisson_interval(k, alpha=0.05):
    """Exact (Garwood) interval for a Poisson mean, given k events."""
    hi_bound = 10.0 * (k + 10)
    lo = 0.0 if k == 0 else bisect(lambda mu: (1 - poisson_cdf(k - 1, mu)) - alpha / 2, 0, hi_bound)
    hi = bisect(lambda mu: (alpha / 2) - poisson_cdf(k, mu), 0, hi_bound)
    return lo, hi


def binom_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))


def clopper_pearson(k, n, alpha=0.05):
    lo = 0.0 if k == 0 else bisect(lambda p: (1 - binom_cdf(k - 1, n, p)) - alpha / 2, 0, 1)
    hi = 1.0 if k == n else bisect(lambda p: alpha / 2 - binom_cdf(k, n, p), 0, 1)
    return lo, hi


def main():
    rows = []
    header = None
    for line in open(sys.argv[1]):
        if line.startswith('#'):
            print(line.rstrip())
            continue
        fields = line.rstrip('\n').split('\t')
        if header is None:
            header = fields
            continue
        rows.append(dict(zip(header, fields)))
    arms = []
    for r in rows:
        if r['arm'] not in arms:
            arms.append(r['arm'])
    stats = {}
    print()
    print('%-18s %6s %8s %7s %8s  %s' % ('arm', 'boots', 'cycles', 'deaths', 'seconds', 'deaths per 1000 cycles [95% interval]'))
    for arm in arms:
        mine = [r for r in rows if r['arm'] == arm]
        cycles = sum(int(r['cycles']) for r in mine)
        deaths = sum(r['died'] == 'yes' for r in mine)
        seconds = sum(int(r['seconds']) for r in mine)
        stats[arm] = (cycles, deaths)
        lo, hi = poisson_interval(deaths)
        scale = 1000.0 / cycles if cycles else float('nan')
        print('%-18s %6d %8d %7d %8d  %.2f [%.2f, %.2f]' % (
            arm, len(mine), cycles, deaths, seconds, deaths * scale, lo * scale, hi * scale))
    print()
    for arm in arms:
        # Each arm against the control on its emulator: stock@E.
        control = 'stock@' + arm.split('@', 1)[-1].split('/')[0]
        if arm == control or control not in stats:
            continue
        c0, d0 = stats[control]
        c1, d1 = stats[arm]
        if not c0 or not c1:
            continue
        n = d0 + d1
        if n == 0:
            print('%s / %s: no deaths in either arm' % (arm, control))
            continue
        # Given n deaths in all, d1 ~ Binomial(n, p), p = r1 c1 / (r1 c1 + r0 c0).
        lo, hi = clopper_pearson(d1, n)
        to_ratio = lambda p: float('inf') if p >= 1 else (p / (1 - p)) * (c0 / c1)
        print('%s / %s, rate ratio: %s [%s, %s]' % (
            arm, control, fmt(to_ratio(d1 / n)), fmt(to_ratio(lo)), fmt(to_ratio(hi))))
    print()
    print('deaths, failures and kernel warnings, by what the serial console shows first:')
    for r in rows:
        if r['died'] == 'yes' or r['first_bad'] != '-' or r['verdict'] == 'FAIL':
            print('  round %s %s after %s cycles (%s, verdict %s): %s at %s' % (
                r['round'], r['arm'], r['cycles'], 'died' if r['died'] == 'yes' else 'lived',
                r['verdict'], r['first_bad'], r['rip']))


def fmt(x):
    return 'inf' if math.isinf(x) else '%.2f' % x


if __name__ == '__main__':
    main()
