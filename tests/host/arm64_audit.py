#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host-side audit of a Debian arm64 kernel image for clusterswap.

Checks, on a vmlinux with its symbol table (the -dbg package's) and the
image's config, that the machine code has the layout the module relies on
(module/README.md, sections 2, 3 and 12):

  config     ftrace mode, BTI, pointer authentication, preemption, page size,
             KALLSYMS_ALL
  layout     every redirected or observed function starts with the two NOPs
             of -fpatchable-function-entry (sym+0 becomes MOV X9, LR, sym+4
             the ftrace site), with CALL_OPS two more NOPs before it; what
             sits at sym+8, where the gate enters an original; the site is in
             the kernel's mcount_loc table
  clones     no .constprop/.isra/.part copy of a hooked function, and no
             second function of the same name
  final-free each "final-free" function is out of line, its callers are the
             expected ones, and DWARF (llvm-dwarfdump, if present) shows no
             inlined copy
  tail-calls no direct b / b.cond / cbz / cbnz / tbz / tbnz from a function
             the module calls (or from one such jumps reach, --chain deep)
             onto a redirected function's sym, sym+4 or sym+8
  kallsyms   which resolved names the kernel's own kallsyms table lists
             (decoded from the image, as /proc/kallsyms would show them)
  data       for each "decode" function, the adrp/add/ldr sequences that
             reach a "data" symbol

The functions file has one "ROLE NAME [callers=A,B,...]" per line; a role
ending in "?" marks a symbol the module resolves only on some builds (its
absence is INFO, not FAIL):
  redirect    redirected with IPMODIFY; the module calls it through the gate
              at sym+8
  observe     traced only (swapon / swapoff)
  call        resolved and called through the gate at sym+0
  data        a variable the module reads
  final-free  stock's final free: must be out of line, called by callers=
  decode      a function whose code the data decoder reads (not resolved)

Prints one "PASS|FAIL|INFO <check> <subject>: <detail>" line per finding,
then a summary; exits 1 if anything failed.  Needs aarch64-linux-gnu-nm and
aarch64-linux-gnu-objdump (binutils-aarch64-linux-gnu).

usage: arm64_audit.py --vmlinux VMLINUX --config CONFIG --functions FILE
                      [--chain 4] [--verbose]
"""
import argparse
import bisect
import os
import re
import shutil
import struct
import subprocess
import sys

NM = "aarch64-linux-gnu-nm"
OBJDUMP = "aarch64-linux-gnu-objdump"

NOP = 0xD503201F
MOV_X9_LR = 0xAA1E03E9
HINTS = {
    0xD503233F: "paciasp", 0xD503237F: "pacibsp",
    0xD503241F: "bti", 0xD503245F: "bti c", 0xD503249F: "bti j", 0xD50324DF: "bti jc",
    NOP: "nop",
}

results = []


def report(verdict, check, subject, detail):
    results.append(verdict)
    print(f"{verdict} {check} {subject}: {detail}")


# --- the image ----------------------------------------------------------

class Image:
    """The loaded sections of an ELF vmlinux, and its symbols (from nm)."""

    def __init__(self, path):
        self.path = path
        self.f = open(path, "rb")
        ehdr = self.f.read(64)
        if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2 or ehdr[5] != 1:
            sys.exit(f"{path}: not a 64-bit little-endian ELF file")
        shoff, = struct.unpack_from("<Q", ehdr, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", ehdr, 0x3A)
        self.sections = []            # (addr, size, file offset, executable)
        self.rela = []                # (file offset, size) of RELA sections
        for i in range(shnum):
            self.f.seek(shoff + i * shentsize)
            sh = self.f.read(shentsize)
            _name, stype, flags, addr, off, size = struct.unpack_from("<IIQQQQ", sh, 0)
            if stype == 1 and flags & 0x2 and size:      # PROGBITS, ALLOC
                self.sections.append((addr, size, off, bool(flags & 0x4)))
            if stype == 4 and size:                      # RELA
                self.rela.append((off, size))
        self.relative = None
        self.load_symbols()

    def relocated(self, addr):
        """The 64-bit value at @addr as the kernel sees it after its own
        relocation: a RELATIVE relocation's addend where the linker left the
        place empty (--no-apply-dynamic-relocs), else the bytes (RELR)."""
        if self.relative is None:
            self.relative = {}
            for off, size in self.rela:
                self.f.seek(off)
                raw = self.f.read(size)
                for r_offset, r_info, r_addend in struct.iter_unpack("<QQq", raw):
                    if r_info & 0xFFFFFFFF == 1027:      # R_AARCH64_RELATIVE
                        self.relative[r_offset] = r_addend & (2**64 - 1)
        return self.relative.get(addr, self.u64(addr))

    def read(self, addr, n):
        for start, size, off, _x in self.sections:
            if start <= addr and addr + n <= start + size:
                self.f.seek(off + addr - start)
                return self.f.read(n)
        return None

    def word(self, addr):
        b = self.read(addr, 4)
        return None if b is None else struct.unpack("<I", b)[0]

    def words(self, addr, size):
        b = self.read(addr, size)
        return [] if b is None else [w for (w,) in struct.iter_unpack("<I", b[:size & ~3])]

    def u64(self, addr):
        b = self.read(addr, 8)
        return None if b is None else struct.unpack("<Q", b)[0]

    def load_symbols(self):
        out = subprocess.run([NM, "-S", "--defined-only", self.path], check=True,
                             capture_output=True, text=True).stdout
        self.by_name = {}             # name -> [(addr, size, type)]
        funcs = []
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 4:
                addr, size, typ, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
            elif len(parts) == 3:
                addr, size, typ, name = int(parts[0], 16), 0, parts[1], parts[2]
            else:
                continue
            if name.startswith("$"):
                continue
            self.by_name.setdefault(name, []).append((addr, size, typ))
            if typ in "TtWw" and size:
                funcs.append((addr, size, name))
        funcs.sort()
        self.funcs = funcs
        self.func_starts = [f[0] for f in funcs]

    def sym(self, name):
        """The first definition of @name, as kallsyms_lookup_name would find one."""
        defs = self.by_name.get(name)
        return defs[0] if defs else None

    def function_at(self, addr):
        """(start, size, name) of the function holding @addr, or None."""
        i = bisect.bisect_right(self.func_starts, addr) - 1
        # Aliases share a start with different sizes: look at a few.
        for j in range(i, max(i - 8, -1), -1):
            start, size, name = self.funcs[j]
            if start <= addr < start + size:
                return self.funcs[j]
        return None

    def name_at(self, addr):
        f = self.function_at(addr)
        return f"{f[2]}+{addr - f[0]:#x}" if f else f"{addr:#x}"

    def objdump(self, start, stop):
        """[(addr, text)] of objdump's disassembly of [start, stop)."""
        out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn",
                              f"--start-address={start:#x}", f"--stop-address={stop:#x}",
                              self.path], check=True, capture_output=True, text=True).stdout
        lines = []
        for line in out.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
            if m:
                lines.append((int(m.group(1), 16), m.group(2).strip()))
        return lines


def read_config(path):
    config = {}
    for line in open(path):
        m = re.match(r"(CONFIG_\w+)=(.*)", line)
        if m:
            config[m.group(1)] = m.group(2).strip('"')
    return config


def read_functions(path):
    entries = []
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        role, name = line[0], line[1]
        optional = role.endswith("?")
        opts = dict(o.split("=", 1) for o in line[2:] if "=" in o)
        entries.append({"role": role.rstrip("?"), "name": name, "optional": optional,
                        "callers": [c for c in opts.get("callers", "").split(",") if c]})
    return entries


ROLE_RANK = ["redirect", "final-free", "observe", "call", "data", "decode"]


def unique(entries):
    """One entry per name, with its strongest role (a name may be listed twice)."""
    best = {}
    for e in entries:
        b = best.get(e["name"])
        if b is None or ROLE_RANK.index(e["role"]) < ROLE_RANK.index(b["role"]):
            best[e["name"]] = e
    return [best[n] for n in dict.fromkeys(e["name"] for e in entries)]


# --- instruction decoding (only what the checks need) -------------------

def sext(value, bits):
    return value - (1 << bits) if value & (1 << (bits - 1)) else value


def branch_target(w, pc):
    """(kind, target) of a direct branch, or None.  kind: 'bl' or 'jump'."""
    if w & 0xFC000000 == 0x94000000:                       # BL
        return "bl", pc + 4 * sext(w & 0x3FFFFFF, 26)
    if w & 0xFC000000 == 0x14000000:                       # B
        return "jump", pc + 4 * sext(w & 0x3FFFFFF, 26)
    if w & 0xFF000000 == 0x54000000:                       # B.cond, BC.cond
        return "jump", pc + 4 * sext((w >> 5) & 0x7FFFF, 19)
    if w & 0x7E000000 == 0x34000000:                       # CBZ, CBNZ
        return "jump", pc + 4 * sext((w >> 5) & 0x7FFFF, 19)
    if w & 0x7E000000 == 0x36000000:                       # TBZ, TBNZ
        return "jump", pc + 4 * sext((w >> 5) & 0x3FFF, 14)
    return None


def describe(w):
    if w is None:
        return "unreadable"
    if w in HINTS:
        return HINTS[w]
    if w == MOV_X9_LR:
        return "mov x9, x30"
    return f"{w:#010x}"


# --- checks ---------------------------------------------------------------

def check_config(config):
    def val(opt):
        return config.get("CONFIG_" + opt, "n")

    for opt in ("DYNAMIC_FTRACE_WITH_ARGS", "DYNAMIC_FTRACE_WITH_REGS",
                "DYNAMIC_FTRACE_WITH_CALL_OPS", "DYNAMIC_FTRACE_WITH_DIRECT_CALLS",
                "FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY", "FUNCTION_GRAPH_TRACER",
                "ARM64_PTR_AUTH_KERNEL", "ARM64_BTI", "KALLSYMS_ALL", "PREEMPT_VOLUNTARY",
                "PREEMPT", "PREEMPT_DYNAMIC", "KPROBES", "LIVEPATCH", "ZSWAP", "FRONTSWAP",
                "SHADOW_CALL_STACK", "CFI_CLANG", "FRAME_POINTER", "ARM64_ERRATUM_843419",
                "RELOCATABLE", "RANDOMIZE_BASE"):
        report("INFO", "config", opt, val(opt))
    report("INFO", "config", "compiler", val("CC_VERSION_TEXT"))
    if val("FRAME_POINTER") == "y":
        report("INFO", "config", "sibling calls",
               "FRAME_POINTER=y: the top Makefile adds -fno-optimize-sibling-calls (C code makes no tail calls;"
               " gcc's identical-code folding and linker veneers still make direct jumps)")
    pages = [p for p in ("4K", "16K", "64K") if val(f"ARM64_{p}_PAGES") == "y"]
    report("INFO", "config", "page size", ",".join(pages) or "unknown")
    report("PASS" if val("ARM64_BTI_KERNEL") != "y" else "FAIL", "config", "ARM64_BTI_KERNEL",
           val("ARM64_BTI_KERNEL") + " (a BTI kernel is refused: sym+8 would not be the prologue)")
    report("PASS" if val("PREEMPT_RT") != "y" else "FAIL", "config", "PREEMPT_RT", val("PREEMPT_RT"))
    ftrace = val("DYNAMIC_FTRACE_WITH_ARGS") == "y" or val("DYNAMIC_FTRACE_WITH_REGS") == "y"
    report("PASS" if ftrace and val("FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY") == "y" else "FAIL",
           "config", "ftrace mode",
           "args" if val("DYNAMIC_FTRACE_WITH_ARGS") == "y" else
           "regs" if val("DYNAMIC_FTRACE_WITH_REGS") == "y" else "neither")


def mcount_sites(img):
    """The addresses in the kernel's mcount_loc table (patchable entries)."""
    start, stop = img.sym("__start_mcount_loc"), img.sym("__stop_mcount_loc")
    if not start or not stop:
        return None
    return set(img.relocated(a) for a in range(start[0], stop[0], 8))


def jump_labels(img):
    """{code address: key name} of the kernel's static-branch sites."""
    start, stop = img.sym("__start___jump_table"), img.sym("__stop___jump_table")
    labels = {}
    if not start or not stop:
        return labels
    raw = img.read(start[0], stop[0] - start[0])
    for i in range(0, len(raw) - 15, 16):
        code, _target, key = struct.unpack_from("<iiq", raw, i)
        labels[start[0] + i + code] = (start[0] + i + 8 + key) & ~3 & (2**64 - 1)
    return labels


def data_name(img, addr):
    for name, defs in img.by_name.items():
        for a, size, typ in defs:
            if typ in "bBdDrR" and a <= addr < a + max(size, 1):
                return name
    return f"{addr:#x}"


def check_layout(img, entries, call_ops, verbose):
    """a. The patchable-function-entry words around each hooked function."""
    sites = mcount_sites(img)
    if not sites or sites == {0}:
        report("FAIL", "layout", "mcount_loc", "table missing or not filled in (relocated at boot?)")
        sites = None
    else:
        report("INFO", "layout", "mcount_loc", f"{len(sites)} patchable sites in the image")
    labels = jump_labels(img)
    pre = 2 if call_ops else 0
    shapes = {}
    at8s = {}
    for e in unique(entries):
        if e["role"] not in ("redirect", "observe", "call", "final-free"):
            continue
        s = img.sym(e["name"])
        if not s or s[2] not in "TtWw":
            continue
        addr = s[0]
        before = [img.word(addr - 4 * k) for k in range(pre, 0, -1)]
        first = [img.word(addr), img.word(addr + 4)]
        # With CALL_OPS, mcount_loc records the first pre-function NOP.
        recorded = addr - 4 * pre
        ok = (all(w == NOP for w in before + first)
              and (not call_ops or addr % 8 == 0)
              and (sites is None or recorded in sites))
        shape = " ".join(describe(w) for w in before) + (" | " if pre else "") + \
            " ".join(describe(w) for w in first)
        dis = dict(img.objdump(addr - 4 * pre, addr + 16))
        at8 = dis.get(addr + 8, "?")
        if addr + 8 in labels:
            at8 += f" (static branch on {data_name(img, labels[addr + 8])})"
        where = f"sym-{4 * pre}" if pre else "sym"
        detail = (f"{addr:#x}: [{shape}] then sym+8: {at8}; "
                  f"{where} {'in' if sites and recorded in sites else 'NOT in'} mcount_loc"
                  + (f"; sym % 8 = {addr % 8}" if call_ops else ""))
        if e["role"] in ("redirect", "observe"):
            shapes.setdefault(shape, []).append(e["name"])
            at8s.setdefault(at8.split()[0], []).append(e["name"])
            report("PASS" if ok else "FAIL", "layout", e["name"], detail)
        else:
            # Entered at sym+0: its own layout does not matter to the gate.
            report("INFO", "layout", f"{e['name']} ({e['role']})",
                   detail + ("" if ok else " (no ftrace site: fine, entered at sym+0)"))
        if verbose:
            for a in sorted(dis):
                print(f"      {a:x}: {dis[a]}")
    report("PASS" if len(shapes) == 1 else "FAIL", "layout", "same patchable words",
           "; ".join(f"[{k}]: {len(v)} functions" for k, v in shapes.items()))
    report("INFO", "layout", "sym+8 of the hooked functions",
           "; ".join(f"{k}: {len(v)}" + ("" if k == "paciasp" else f" ({', '.join(v)})")
                     for k, v in at8s.items()))


def check_symbols(img, entries):
    """Every resolved name exists, once; report kinds."""
    for e in unique(entries):
        if e["role"] == "decode" and not img.sym(e["name"]):
            report("INFO" if e["optional"] else "FAIL", "symbol", e["name"], "decode source missing")
        if e["role"] not in ("redirect", "observe", "call", "data", "final-free"):
            continue
        defs = img.by_name.get(e["name"], [])
        if not defs:
            report("INFO" if e["optional"] else "FAIL", "symbol", e["name"],
                   "absent" + (" (optional)" if e["optional"] else ""))
            continue
        kinds = ", ".join(f"{t} {a:#x} size {s:#x}" for a, s, t in defs)
        if len(defs) > 1:
            report("FAIL" if e["role"] in ("redirect", "observe", "final-free") else "INFO",
                   "symbol", e["name"], f"{len(defs)} definitions ({kinds}): kallsyms_lookup_name finds only one")
        else:
            report("PASS", "symbol", e["name"], kinds)


CLONE = re.compile(r"\.(constprop|isra|part|cold|lto_priv|localalias|clone|specialized)(\.\d+)?")


def check_clones(img, entries):
    """b. Compiler-made copies of any resolved or redirected function."""
    names = set(e["name"] for e in entries if e["role"] != "data")
    copies = {}
    for name in img.by_name:
        base = name.split(".", 1)[0]
        if base in names and name != base and CLONE.search(name):
            copies.setdefault(base, []).append(name)
    for e in unique(entries):
        if e["role"] == "data" or not img.sym(e["name"]):
            continue
        found = sorted(copies.get(e["name"], []))
        real = [c for c in found if not c.endswith(".cold")]
        hooked = e["role"] in ("redirect", "observe", "final-free")
        if real:
            report("FAIL" if hooked else "INFO", "clones", e["name"], ", ".join(found))
        else:
            report("PASS", "clones", e["name"], "none" + (f" (only {', '.join(found)})" if found else ""))


def scan_text_branches(img, wanted):
    """Every direct branch in executable sections whose target is in @wanted.
    Return {target: [(pc, kind)]}."""
    hits = {}
    for start, size, off, execu in img.sections:
        if not execu:
            continue
        img.f.seek(off)
        data = img.f.read(size & ~3)
        pc = start
        for (w,) in struct.iter_unpack("<I", data):
            b = branch_target(w, pc)
            if b and b[1] in wanted:
                hits.setdefault(b[1], []).append((pc, b[0]))
            pc += 4
    return hits


def dwarf_inlined(img, names):
    """{name: [DW_AT_inline values]} from llvm-dwarfdump, or None without it."""
    tool = shutil.which("llvm-dwarfdump")
    if not tool:
        return None
    out = subprocess.run([tool, "--show-children=false"] + [f"--name={n}" for n in names] + [img.path],
                         capture_output=True, text=True).stdout
    found = {n: [] for n in names}
    current = None
    for line in out.splitlines():
        m = re.search(r'DW_AT_name\s+\("([^"]+)"\)', line)
        if m:
            current = m.group(1)
            found.setdefault(current, []).append("concrete?")
        m = re.search(r"DW_AT_inline\s+\((\w+)\)", line)
        if m and current:
            found[current][-1] = m.group(1)
        if re.search(r"DW_AT_low_pc", line) and current and found[current][-1] == "concrete?":
            found[current][-1] = "out-of-line"
        if "DW_TAG_" in line:
            current = None
    return found


def check_final_free(img, entries, hits, verbose):
    """c. The final-free functions are out of line and called where expected."""
    ff = [e for e in entries if e["role"] == "final-free"]
    dwarf = dwarf_inlined(img, [e["name"] for e in ff]) if ff else None
    for e in ff:
        s = img.sym(e["name"])
        if not s or s[2] not in "Tt" or not s[1]:
            kinds = ", ".join(dwarf.get(e["name"], [])) if dwarf is not None else "no llvm-dwarfdump"
            report("INFO" if e["optional"] else "FAIL", "final-free", e["name"],
                   f"no out-of-line copy in the symbol table (DWARF: {kinds or 'nothing'})")
            continue
        addr = s[0]
        calls = []
        for target in (addr, addr + 4, addr + 8):
            for pc, kind in hits.get(target, []):
                f = img.function_at(pc)
                calls.append((f[2] if f else "?", pc, kind, target - addr))
        callers = sorted(set(c[0] for c in calls))
        listing = "; ".join(f"{name}+{pc - img.sym(name)[0]:#x} {kind}"
                            + (f" to sym+{d}" if d else "") if name != "?" else f"{pc:#x} {kind}"
                            for name, pc, kind, d in sorted(calls, key=lambda c: c[1]))
        missing = [c for c in e["callers"] if c not in callers]
        extra = [c for c in callers if e["callers"] and c not in e["callers"]]
        report("PASS" if not missing else "FAIL", "final-free", e["name"],
               f"{len(calls)} direct call sites: {listing}"
               + (f"; expected callers not calling it: {', '.join(missing)}" if missing else "")
               + (f"; other callers: {', '.join(extra)}" if extra else ""))
        if dwarf is not None:
            kinds = dwarf.get(e["name"], [])
            inl = [k for k in kinds if k in ("DW_INL_inlined", "DW_INL_declared_inlined")]
            report("FAIL" if inl else "PASS", "final-free", e["name"] + " (DWARF)",
                   f"DIEs named so: {', '.join(kinds) or 'none'}"
                   + ("; an inlined instance exists somewhere" if inl else "; no inlined instance"))
        if verbose:
            for name, pc, kind, _d in calls:
                for a, text in img.objdump(pc - 8, pc + 4):
                    print(f"      {a:x}: {text}")


def check_tail_calls(img, entries, chain, verbose):
    """d. Direct jumps from gate-called functions onto redirected ones."""
    targets = {}                     # address -> redirected name
    for e in entries:
        s = img.sym(e["name"])
        if e["role"] == "redirect" and s:
            for d in (0, 4, 8):
                targets[s[0] + d] = e["name"]
    seen = {}                        # function start -> shallowest depth read
    findings = []

    def walk(start, size, depth, self_name, path):
        for i, w in enumerate(img.words(start, size)):
            pc = start + 4 * i
            b = branch_target(w, pc)
            if not b or b[0] != "jump" or start <= b[1] < start + size:
                continue
            to = b[1]
            owner = targets.get(to)
            if owner and (depth > 0 or owner != self_name):
                findings.append(path + [(pc, to)])
                continue
            if depth + 1 >= chain:
                continue
            f = img.function_at(to)
            if not f or seen.get(f[0], chain) <= depth + 1:
                continue
            seen[f[0]] = depth + 1
            walk(f[0], f[1], depth + 1, None, path + [(pc, to)])

    roots = 0
    for e in unique(entries):
        if e["role"] not in ("redirect", "observe", "call", "final-free"):
            continue
        for name in (e["name"], e["name"] + ".cold"):
            s = img.sym(name)
            if not s or s[2] not in "TtWw" or not s[1]:
                continue
            roots += 1
            seen[s[0]] = 0
            self_name = e["name"] if e["role"] == "redirect" else None
            walk(s[0], s[1], 0, self_name, [])
    report("INFO", "tail-calls", "walk", f"{roots} functions the module calls, {len(seen)} functions read, "
           f"chains up to {chain} jumps, entry points sym/sym+4/sym+8 of {len(targets) // 3} redirects")
    if not findings:
        report("PASS", "tail-calls", "all", "no direct jump reaches a redirected function's sym, sym+4 or sym+8")
    for path in findings:
        text = " then ".join(f"{img.name_at(pc)} -> {img.name_at(to)}" for pc, to in path)
        report("FAIL", "tail-calls", targets[path[-1][1]], text)
        if verbose:
            pc = path[-1][0]
            for a, t in img.objdump(pc - 12, pc + 4):
                print(f"      {a:x}: {t}")

    # The same question kernel-wide, for context: every direct jump (not bl)
    # from anywhere onto a redirected function's entry points.
    hits = scan_text_branches(img, set(targets))
    jumps = [(to, pc) for to, lst in hits.items() for pc, kind in lst if kind == "jump"
             and not (img.function_at(pc) and img.function_at(pc)[0] <= to < sum(img.function_at(pc)[:2]))]
    if not jumps:
        report("PASS", "tail-calls", "kernel-wide", "no direct jump anywhere in the kernel lands on a redirected "
               "function's sym, sym+4 or sym+8")
    for to, lst in sorted(hits.items()):
        for pc, kind in lst:
            if kind != "jump":
                continue
            f = img.function_at(pc)
            if f and f[0] <= to < f[0] + f[1]:
                continue
            report("INFO", "tail-calls", f"kernel-wide into {targets[to]}",
                   f"{img.name_at(pc)} jumps to {img.name_at(to)} (not a function the module calls"
                   + (")" if not any(e["name"] == (f[2] if f else "") for e in entries) else "; LISTED ABOVE)"))


def check_cross_decoder(img, entries):
    """The branch decoder here against objdump, on the functions the module calls."""
    bad = 0
    checked = 0
    for e in entries:
        s = img.sym(e["name"])
        if e["role"] not in ("redirect", "call", "final-free") or not s or s[2] not in "Tt" or not s[1]:
            continue
        mine = {}
        for i, w in enumerate(img.words(s[0], s[1])):
            b = branch_target(w, s[0] + 4 * i)
            if b:
                mine[s[0] + 4 * i] = b[1]
        theirs = {}
        for a, text in img.objdump(s[0], s[0] + s[1]):
            m = re.match(r"(b|bl|b\.\w+|bc\.\w+|cbn?z|tbn?z)\s+(?:[^,]+,\s*)*([0-9a-f]+)(\s|$)", text)
            if m:
                theirs[a] = int(m.group(2), 16)
        checked += 1
        if mine != theirs:
            bad += 1
            diff = sorted(set(mine.items()) ^ set(theirs.items()))[:4]
            report("FAIL", "decoder", e["name"], f"differs from objdump at {[(hex(a), hex(t)) for a, t in diff]}")
    report("PASS" if not bad else "FAIL", "decoder", "branches",
           f"agrees with objdump on {checked - bad} of {checked} functions")


# --- kallsyms, as the running kernel would list it -----------------------

def kallsyms_table(img):
    """{name: (type, address)} decoded from the image's kallsyms tables."""
    need = ["kallsyms_num_syms", "kallsyms_names", "kallsyms_token_table",
            "kallsyms_token_index", "kallsyms_offsets", "kallsyms_relative_base"]
    if not all(img.sym(n) for n in need):
        return None
    num = struct.unpack("<I", img.read(img.sym("kallsyms_num_syms")[0], 4))[0]
    tt_addr = img.sym("kallsyms_token_table")[0]
    ti = struct.unpack("<256H", img.read(img.sym("kallsyms_token_index")[0], 512))
    tt = img.read(tt_addr, max(ti) + 64)
    tokens = [tt[i:tt.index(b"\0", i)].decode("latin-1") for i in ti]
    names_addr = img.sym("kallsyms_names")[0]
    names = img.read(names_addr, img.sym("kallsyms_markers")[0] - names_addr
                     if img.sym("kallsyms_markers") and img.sym("kallsyms_markers")[0] > names_addr
                     else 8 * 1024 * 1024)
    offsets = struct.unpack(f"<{num}i", img.read(img.sym("kallsyms_offsets")[0], 4 * num))
    base = img.relocated(img.sym("kallsyms_relative_base")[0])
    table = {}
    pos = 0
    for i in range(num):
        n = names[pos]
        pos += 1
        if n & 0x80:                  # "big" symbol: two-byte length
            n = (n & 0x7F) | (names[pos] << 7)
            pos += 1
        text = "".join(tokens[t] for t in names[pos:pos + n])
        pos += n
        table.setdefault(text[1:], (text[0], (base + (offsets[i] & 0xFFFFFFFF)) & (2**64 - 1)))
    return table


def check_kallsyms(img, entries, config):
    """e. Which resolved names kallsyms lists (what kallsyms_lookup_name finds)."""
    table = kallsyms_table(img)
    if table is None:
        report("FAIL", "kallsyms", "table", "cannot decode the image's kallsyms tables")
        return
    report("INFO", "kallsyms", "table", f"{len(table)} names decoded; KALLSYMS_ALL="
           f"{config.get('CONFIG_KALLSYMS_ALL', 'n')}")
    for e in unique(entries):
        if e["role"] not in ("redirect", "observe", "call", "data", "final-free"):
            continue
        s = img.sym(e["name"])
        k = table.get(e["name"])
        if not s:
            continue
        if k is None:
            verdict = "INFO" if e["optional"] or e["role"] == "data" else "FAIL"
            report(verdict, "kallsyms", e["name"],
                   f"NOT listed (symbol table: {s[2]} {s[0]:#x}); kallsyms_lookup_name cannot find it")
        else:
            same = "matches" if k[1] == s[0] else f"differs from the symbol table's {s[0]:#x}"
            report("PASS", "kallsyms", e["name"], f"listed as {k[0]} {k[1]:#x} ({same})")


# --- data addresses from adrp/add/ldr -----------------------------------

NO_WRITE = re.compile(r"^(st(?!l?xr)\w*|cmp|cmn|tst|ccmp|ccmn|fcmp\w*|prfu?m|b|bl|b\.\w+|bc\.\w+|"
                      r"cbn?z|tbn?z|br|blr|ret\w*|hint|nop|paciasp|autiasp|bti|dmb|dsb|isb|"
                      r"brk|msr|sev\w*|wfe|yield)$")


def check_data_refs(img, entries, verbose):
    """e (6.1). adrp/add/ldr sequences in the decode functions that name a data symbol."""
    data = {}
    for e in entries:
        s = img.sym(e["name"])
        if e["role"] == "data" and s:
            data[e["name"]] = (s[0], s[1] or 8)

    def which(addr):
        for name, (a, size) in data.items():
            if a <= addr < a + size:
                return f"{name}+{addr - a:#x}" if addr != a else name
        return None

    for e in entries:
        if e["role"] != "decode":
            continue
        s = img.sym(e["name"])
        if not s:
            continue
        regs = {}                    # register number -> (value, [lines])
        found = []
        code = []
        for a, text in img.objdump(s[0], s[0] + s[1]):
            # Cortex-A53 erratum 843419: the linker may move the load after
            # an adrp into a veneer ("b e843419@..."): read it in place.
            m = re.match(r"b\s+([0-9a-f]+) <(e843419@[^>]+)>", text)
            if m:
                v = int(m.group(1), 16)
                moved = img.objdump(v, v + 4)
                if moved:
                    text = f"{moved[0][1]}    [moved to veneer {m.group(2)}]"
            code.append((a, text))
        for a, text in code:
            parts = text.split(None, 1)
            mnem, ops = parts[0], (parts[1] if len(parts) > 1 else "")
            ops = ops.split("//")[0].split("<")[0].strip()
            m = re.match(r"adrp\s+x(\d+),\s*([0-9a-f]+)", text)
            if m:
                regs[int(m.group(1))] = (int(m.group(2), 16), [(a, text)])
                continue
            m = re.match(r"add\s+x(\d+),\s*x(\d+),\s*#(0x[0-9a-f]+|\d+)(?:,\s*lsl #12)?", text)
            if m and int(m.group(2)) in regs:
                base, seq = regs[int(m.group(2))]
                imm = int(m.group(3), 0) << (12 if "lsl #12" in text else 0)
                regs[int(m.group(1))] = (base + imm, seq + [(a, text)])
                hit = which(base + imm)
                if hit:
                    found.append((hit, base + imm, seq + [(a, text)]))
                continue
            m = re.match(r"(ldr\w*|str\w*|ldp|stp|ldar\w*|stlr\w*)\s+(.*)\[x(\d+)(?:,\s*#(-?0x[0-9a-f]+|-?\d+))?\]", text)
            if m and int(m.group(3)) in regs:
                base, seq = regs[int(m.group(3))]
                addr = base + int(m.group(4) or "0", 0)
                hit = which(addr)
                if hit:
                    found.append((hit, addr, seq + [(a, text)]))
            # Any register the instruction writes no longer holds a known address.
            if not NO_WRITE.match(mnem):
                written = re.findall(r"\b[xw](\d+)\b", ops)[:2 if mnem in ("ldp", "ldpsw") else 1]
                for r in written:
                    regs.pop(int(r), None)
            elif mnem.startswith("st") and "xr" in mnem:
                pass
        unique_refs = {}
        for hit, addr, seq in found:  # one per instruction that forms the address
            unique_refs.setdefault(seq[-1][0], (hit, addr, seq))
        found = [unique_refs[k] for k in sorted(unique_refs)]
        names = sorted(set(h for h, _a, _s in found))
        report("PASS" if found else "INFO", "data", e["name"],
               f"{len(found)} references: " + (", ".join(names) if names else "none to a data symbol"))
        if verbose:
            for hit, addr, seq in found:
                print(f"      -> {hit} ({addr:#x})")
                for a, t in seq:
                    print(f"         {a:x}: {t}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vmlinux", required=True, help="vmlinux with symbols (the -dbg package's)")
    ap.add_argument("--config", required=True, help="the image's /boot/config-*")
    ap.add_argument("--functions", required=True, help="ROLE NAME lines (see the top of this file)")
    ap.add_argument("--chain", type=int, default=4, help="jumps followed from a gate-called function (the module's CS_TAIL_CHAIN)")
    ap.add_argument("--verbose", action="store_true", help="print disassembly excerpts")
    args = ap.parse_args()
    for tool in (NM, OBJDUMP):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found (apt-get install binutils-aarch64-linux-gnu)")

    config = read_config(args.config)
    entries = read_functions(args.functions)
    img = Image(args.vmlinux)
    call_ops = config.get("CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS") == "y"

    check_config(config)
    check_symbols(img, entries)
    check_layout(img, entries, call_ops, args.verbose)
    check_clones(img, entries)
    check_cross_decoder(img, entries)
    wanted = set()
    for e in entries:
        s = img.sym(e["name"])
        if e["role"] == "final-free" and s:
            wanted |= {s[0], s[0] + 4, s[0] + 8}
    check_final_free(img, entries, scan_text_branches(img, wanted), args.verbose)
    check_tail_calls(img, entries, args.chain, args.verbose)
    check_kallsyms(img, entries, config)
    check_data_refs(img, entries, args.verbose)

    fails = results.count("FAIL")
    print(f"SUMMARY: {results.count('PASS')} PASS, {fails} FAIL, {results.count('INFO')} INFO")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
