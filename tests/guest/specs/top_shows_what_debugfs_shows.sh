# tools/clusterswap-top against the live module, two swap devices: while
# threads swap, its screen (--once) shows allocation and free rates above
# zero; its --json sample holds every debugfs counter with its value, each
# device as debugfs summarises it (named as /proc/swaps names it) and each
# CPU's state as debugfs "percpu" gives it.  A user without privilege gets
# the sysfs counters and a line saying why devices and CPUs are missing;
# without the module it says so and exits 1.  The pages verify.
# Budget: 39 s on 6.12 (make check, 2-vCPU TCG on a 2-core host); the limit
# is 6.2x the slowest.
TIMEOUT_top_shows_what_debugfs_shows=240
NEEDS_top_shows_what_debugfs_shows="allocator order_lists"
TOP=$BIN/clusterswap-top

# top_matches_debugfs: --json against debugfs read before and after it;
# tries again (up to 5 times) while something still changed the state.
top_matches_debugfs() {
	python3 - "$TOP" <<'PY'
import json, os, re, subprocess, sys

D = "/sys/kernel/debug/clusterswap"

def debugfs():
    st = open(f"{D}/stats").read()
    devs = {t: open(f"{D}/devices/{t}/summary").read() for t in sorted(os.listdir(f"{D}/devices"))}
    return st, open(f"{D}/percpu").read(), devs

for attempt in range(5):
    before = debugfs()
    doc = json.loads(subprocess.run([sys.argv[1], "--json", "-d", "0.2"], check=True,
                                    capture_output=True, text=True).stdout)
    if debugfs() == before:
        break
else:
    sys.exit("debugfs kept changing: no quiet moment to compare in")
stats, percpu, devs = before
bad = []
def value(v):
    """As top reads a stats value: a number where it is one, else the word."""
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v


for line in stats.splitlines():
    k, v = line.split()
    if doc["counters"].get(k) != value(v):
        bad.append(f"counter {k}: top {doc['counters'].get(k)}, debugfs {v}")
if doc["counters"].get("swap_table") != "proven":
    bad.append(f"swap_table: top {doc['counters'].get('swap_table')}, want proven with devices on")
swaps = [l.split()[0] for l in open("/proc/swaps").read().splitlines()[1:]]
if len(doc["devices"]) != len(devs):
    bad.append(f"top shows {len(doc['devices'])} devices, debugfs has {len(devs)}")
for dev in doc["devices"]:
    s = dict(l.split(None, 1) for l in devs[str(dev["type"])].splitlines())
    if dev["device"] != s["device"] or dev["device"] not in swaps:
        bad.append(f"type {dev['type']}: top names it {dev['device']}, debugfs {s['device']}, /proc/swaps {swaps}")
    for key in ("pages", "inuse", "clusters"):
        if dev[key] != int(s[key]):
            bad.append(f"type {dev['type']} {key}: top {dev[key]}, debugfs {s[key]}")
    for lst in ("free", "full", "discard"):
        if dev["lists"][lst] != int(s[lst + "_clusters"]):
            bad.append(f"type {dev['type']} {lst}: top {dev['lists'][lst]}, debugfs {s[lst + '_clusters']}")
    for key, val in s.items():
        m = re.match(r"order(\d+)$", key)
        if m:
            nf, fr = int(val.split()[1]), int(val.split()[3])
            o = m.group(1)
            if dev["lists"]["nonfull"].get(o) != nf or dev["lists"]["frag"].get(o) != fr:
                bad.append(f"type {dev['type']} order {o}: top {dev['lists']['nonfull'].get(o)}/{dev['lists']['frag'].get(o)}, debugfs {val}")
lines = percpu.splitlines()
if len(doc["cpus"]) != len(lines):
    bad.append(f"top shows {len(doc['cpus'])} CPUs, debugfs {len(lines)}")
for cpu, line in zip(doc["cpus"], lines):
    items = [f"o{o}={c['type']}:{c['cluster']}+{c['slot']}" for o, c in sorted(cpu["clusters"].items())]
    for kind in ("spare", "filled"):
        items += [f"{kind}.o{o}={c['type']}:{c['cluster']}" for o, cl in sorted(cpu[kind].items()) for c in cl]
    items += [f"credit.{t}={n}" for t, n in cpu["credit"].items()]
    want = set(line.split()[2:-4])
    if set(items) != want or f"fast {cpu['fast']} slow {cpu['slow']}" not in line:
        bad.append(f"cpu {cpu['cpu']}: top {sorted(items)} fast {cpu['fast']} slow {cpu['slow']}; debugfs: {line}")
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
print(f"  --json agrees with debugfs: {len(stats.splitlines())} counters, {len(doc['devices'])} devices, "
      f"{len(doc['cpus'])} CPUs (attempt {attempt + 1})")
PY
}

test_top_shows_what_debugfs_shows() {
	command -v python3 >/dev/null || fail "no python3 in the guest root"
	zram_swap 0 512M
	zram_swap 1 256M
	cs_load
	cs_set 1
	memcg top 64
	# Until told to finish, once clusterswap-top has sampled it.
	in_memcg_bg top $BIN/verifier -t 2 -m 192 -p 2 -d 600 -s 95
	pid=$bg_pid
	# Sample once the load both swaps out and frees: its first pass only
	# writes (a stray free or two), its second swaps each page in (a free)
	# and out again.  1000 frees say the second pass is under way; a fixed
	# wait is too short on a debug kernel, and so was waiting for the first
	# free (a debug guest sampled 980 allocations and no free per second).
	f0=$(cs_stat freed)
	frees=0
	i=0
	while [ $frees -lt 1000 ] && kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.5
		i=$((i + 1))
		frees=$(($(cs_stat freed) - f0))
	done
	[ $frees -ge 1000 ] || fail "the load freed $frees slots in $((i / 2)) s, want 1000 (its second pass)"
	$TOP --once -d 3 >/tmp/top.txt 2>&1 || fail "clusterswap-top --once under load: $(cat /tmp/top.txt)"
	running $pid || fail "the load ended before clusterswap-top had sampled it"
	kill -USR1 $pid
	wait $pid
	verifier_ok $? "while clusterswap-top watched"
	note "clusterswap-top --once, under load:"
	sed 's/^/    | /' /tmp/top.txt
	rate=$(sed -n 's/.* alloc\/s \([0-9]*\) .*/\1/p' /tmp/top.txt)
	freed=$(sed -n 's/.* freed\/s \([0-9]*\) .*/\1/p' /tmp/top.txt)
	[ "${rate:-0}" -gt 0 ] || fail "the screen shows no allocations per second under load"
	[ "${freed:-0}" -gt 0 ] || fail "the screen shows no frees per second under load"
	for dev in /dev/zram0 /dev/zram1; do
		grep -q " $dev .*\[" /tmp/top.txt || fail "the screen has no cluster map for $dev"
	done
	grep -q "si->lock holds per 1000 allocations" /tmp/top.txt || fail "the screen lacks si->lock holds"

	top_matches_debugfs || fail "clusterswap-top --json does not match debugfs (above)"

	setpriv --reuid=65534 --regid=65534 --clear-groups $TOP --once -d 0.5 >/tmp/top-user.txt 2>&1 ||
		fail "clusterswap-top as user 65534: $(cat /tmp/top-user.txt)"
	grep -q "devices and CPUs not shown: debugfs is for root only" /tmp/top-user.txt ||
		fail "as user 65534 it does not say why devices and CPUs are missing: $(cat /tmp/top-user.txt)"
	grep -q "alloc/s" /tmp/top-user.txt || fail "as user 65534 it shows no counters"
	note "as user 65534: $(sed -n '$p' /tmp/top-user.txt)"
	cs_set 0
	cs_unload
	$TOP --once >/tmp/top-gone.txt 2>&1
	rc=$?
	[ $rc = 1 ] || fail "without the module it exited $rc, want 1"
	grep -q "clusterswap is not loaded" /tmp/top-gone.txt || fail "without the module it says: $(cat /tmp/top-gone.txt)"
}
