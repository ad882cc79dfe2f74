#!/usr/bin/env python3
"""Write each in-VM test's measured time above its limit.

    tests/host/budgets.py LOG [SPECDIR]

LOG is the output of a whole `make check` (one lane or several: the parts are
printed in order either way).  For every test that log timed, the comment
block above its TIMEOUT_ line in SPECDIR (default tests/guest/specs) gets its
`# Budget:` lines rewritten: the time on each kernel, and how many times the
limit covers the slowest.  Lines of the block above `# Budget:` are kept; a
test the log did not time is left as it is.  Prints one line per test, and
the tests whose limit covers their slowest time less than 3 times.
"""
import os
import re
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
HEADROOM = 3.0


def kernel_names():
    """{target: KERNELS name}, in target_of's order (tests/vm/targets.sh)."""
    with open(os.path.join(HERE, '..', 'vm', 'targets.sh')) as f:
        pairs = re.findall(r'^\t([0-9][^)\s]*)\) echo (\S+) ;;$', f.read(), re.M)
    if not pairs:
        sys.exit('budgets.py: no kernel names in tests/vm/targets.sh (target_of)')
    return {target: name for name, target in pairs}


TARGETS = kernel_names()
ORDER = list(TARGETS.values())


def read_times(log):
    """{test: {kernel: seconds}} from a make check log."""
    times = {}
    target = None
    with open(log, errors='replace') as f:
        for line in f:
            m = re.match(r'^##### VM: (\S+)', line)
            if m:
                target = TARGETS.get(m.group(1), m.group(1))
                continue
            if line.startswith('##### '):
                target = None
                continue
            m = re.match(r'^  \| === (\w+): (?:PASS|FAIL) \w+ \((\d+)s\)', line)
            if m and target:
                times.setdefault(m.group(1), {})[target] = int(m.group(2))
    return times


def budget_lines(per, limit):
    worst = max(max(per.values()), 1)
    where = ', '.join('%d\u00a0s on %s' % (per[k], k)
                      for k in ORDER + sorted(set(per) - set(ORDER)) if k in per)
    text = ('Budget: %s (make check, 2-vCPU TCG on a 2-core host); the limit '
            'is %.1fx the slowest.' % (where, limit / worst))
    return ['# ' + l.replace('\u00a0', ' ')
            for l in textwrap.wrap(text, 74, break_on_hyphens=False)], worst


def rewrite(path, test, per):
    with open(path) as f:
        src = f.read().split('\n')
    idx = next(i for i, l in enumerate(src) if l.startswith('TIMEOUT_%s=' % test))
    limit = int(src[idx].split('=', 1)[1])
    top = idx
    while top > 0 and src[top - 1].startswith('#'):
        top -= 1
    block = src[top:idx]
    old = next((i for i, l in enumerate(block) if l.startswith('# Budget:')), len(block))
    lines, worst = budget_lines(per, limit)
    src = src[:top] + block[:old] + lines + src[idx:]
    with open(path, 'w') as f:
        f.write('\n'.join(src))
    return limit, worst


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    specdir = sys.argv[2] if len(sys.argv) == 3 else os.path.join(HERE, '..', 'guest', 'specs')
    times = read_times(sys.argv[1])
    if not times:
        sys.exit('budgets.py: no test times in %s (not a make check log?)' % sys.argv[1])
    tight = []
    for test, per in sorted(times.items()):
        path = os.path.join(specdir, test + '.sh')
        if not os.path.exists(path):
            continue
        limit, worst = rewrite(path, test, per)
        print('%-55s limit %4d s, slowest %4d s (%.1fx)' % (test, limit, worst, limit / worst))
        if limit < HEADROOM * worst:
            tight.append(test)
    if tight:
        print('under %.0fx: %s' % (HEADROOM, ' '.join(tight)))


if __name__ == '__main__':
    main()
