#!/usr/bin/env python3
"""Prove on a built clusterswap.ko that every call it makes into a kernel
function it resolved from kallsyms goes through its gate (module/arch/<arch>/
gate.S), and that no other indirect branch can reach such an address.

A direct call from a module can only reach an exported function: the module
loader resolves it against the exports.  So a call into a non-exported
function is an indirect branch, and the rules are about those.

On x86-64 this is the IBT check.  Debian's 6.12 kernel runs with IBT on
CPUs that have it: an indirect CALL or JMP to a function whose ENDBR was
sealed at boot is a fatal #CP.  QEMU does not enforce IBT, so no VM test can
catch such a call; this check does, on the object code itself.  The gate
enters a function with a RET, which IBT does not check.

On arm64 (no kernel BTI in Debian's builds) the gate is one BLR, with its
own return address, which the redirect callback relies on (module/hooks.c).

Two rules:

 1. The module contains no indirect call or jump.  On x86-64: no "call *",
    no "jmp *", no call or jump to a retpoline thunk
    (__x86_indirect_thunk_*, which the kernel rewrites to "call *%reg" on
    IBT machines).  On arm64: no BLR or BR (nor their authenticating forms)
    but the gate's one BLR, in cs_gate_call.  Exceptions:
     - x86-64: a paravirt call through pv_ops, which the kernel patches into
       direct code at boot and which never holds a module-resolved address;
     - the cs_kcall_* functions, each of which calls a function pointer the
       kernel stored in its own structure for the kernel's own indirect calls
       (a block driver's swap_slot_free_notify, a percpu_ref's release), so
       the target keeps its ENDBR.  They never read cs_resolved (rule 2);
     - the iterator of each of the module's own tracepoints,
       __traceiter_<event> for each TRACE_EVENT(<event>, ...) of
       include/clusterswap/trace.h: it calls the probes registered on the
       event, which the tracing core took by address (they keep their
       ENDBR).  An iterator of any other name is not allowed.
 2. The table of resolved addresses, cs_resolved, is read only by the
    cs_sym_* functions of module/symbols.c and cs_sym_call of gate.S,
    which hand addresses only to the gate or out as plain numbers.

Usage: gate_check.py MODULE.ko   (exit 0: clean; 1: violations, listed)
"""
import os
import re
import subprocess
import sys

TABLE = "cs_resolved"
TABLE_READERS = re.compile(r"^cs_sym_")
READER_IN_C = "cs_sym_addr"
KCALL = re.compile(r"^cs_kcall_")
THUNK = re.compile(r"__x86_indirect_(call_|jump_)?thunk")
PARAVIRT = re.compile(r"^pv_ops\b")

TRACE_HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "..", "include", "clusterswap", "trace.h")


def trace_iterators():
    """The __traceiter_* functions of the events the module defines."""
    with open(TRACE_HEADER) as f:
        events = re.findall(r"^TRACE_EVENT\((\w+),", f.read(), re.M)
    return {"__traceiter_" + e for e in events}


FUNC_RE = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
INSN_RE = re.compile(r"^\s+([0-9a-f]+):\s+(.*)$")
RELOC_RE = re.compile(r"^\s+([0-9a-f]+): (R_(?:X86_64|AARCH64)_\w+)\s+(\S+)$")

EM_X86_64 = 62
EM_AARCH64 = 183
# arm64's register branches: BR and BLR, and their pointer-authenticating
# forms (RET through another register than x30 is checked beside them).
ARM64_INDIRECT = re.compile(r"^(blr|br)(aa|ab|aaz|abz)?$")
ARM64_GATE = ("cs_gate_call", "blr\tx16")


def machine(path):
    """The ELF e_machine of PATH: EM_X86_64 or EM_AARCH64."""
    with open(path, "rb") as f:
        head = f.read(20)
    if head[:4] != b"\x7fELF" or head[5] != 1:
        sys.exit(f"{path}: not a little-endian ELF file")
    return int.from_bytes(head[18:20], "little")


def objects(path, objdump):
    """Each section's data objects: {section: [(start, end, name)]}."""
    out = subprocess.run([objdump, "-t", path], check=True, capture_output=True,
                         text=True).stdout
    table = {}
    for line in out.splitlines():
        f = line.split()
        # "0000000000000000 g     O .data..ro_after_init	00000000000001d0 cs_resolved"
        if len(f) >= 5 and "O" in f[1:-3] and re.fullmatch(r"[0-9a-f]+", f[-2]):
            start, size = int(f[0], 16), int(f[-2], 16)
            table.setdefault(f[-3], []).append((start, start + max(size, 1), f[-1]))
    return table


# x86-64's PC-relative relocations: the addend is the target's offset less
# the distance from the relocated field to the end of its instruction.
X86_PC_RELATIVE = {"R_X86_64_PC32", "R_X86_64_PLT32", "R_X86_64_GOTPCREL",
                   "R_X86_64_GOTPCRELX", "R_X86_64_REX_GOTPCRELX"}


def named(target, table, bias=0):
    """A relocation's target, SYMBOL[+-ADDEND] or SECTION[+-ADDEND], named by
    the object it lands in (ADDEND + BIAS into the section): a static
    variable is reached relative to its section."""
    m = re.fullmatch(r"([^+-]+)([+-]0x[0-9a-f]+)?", target)
    if not m or m.group(1) not in table:
        return target
    addend = int(m.group(2) or "0", 16) + bias
    for start, end, name in table[m.group(1)]:
        if start <= addend < end:
            return name
    return target


def disassemble(path, objdump):
    out = subprocess.run([objdump, "-dr", "--no-show-raw-insn", path],
                         check=True, capture_output=True, text=True).stdout
    func = None
    insns = []  # (func, offset, text, [(reloc offset, type, target)], end)
    for line in out.splitlines():
        m = FUNC_RE.match(line)
        if m:
            func = m.group(1)
            continue
        m = RELOC_RE.match(line)
        if m and insns:
            insns[-1][3].append((int(m.group(1), 16), m.group(2), m.group(3)))
            continue
        m = INSN_RE.match(line)
        if m and func:
            insns.append([func, int(m.group(1), 16), m.group(2).strip(), [], None])
    # Where each instruction ends: where the next of its function starts.
    for this, after in zip(insns, insns[1:]):
        if after[0] == this[0]:
            this[4] = after[1]
    return insns


def x86_indirect(func, text, relocs):
    """Why the x86-64 instruction TEXT breaks rule 1, or None."""
    words = text.split()
    prefixed = bool(words) and words[0] in ("notrack", "bnd")
    mnemonic = words[1] if prefixed else (words[0] if words else "")
    operand = text.split(None, 2 if prefixed else 1)[-1] if len(words) > 1 else ""
    if not mnemonic.startswith(("call", "jmp")):
        return None
    if operand.startswith("*"):
        if not any(PARAVIRT.match(r) for r in relocs):
            return "indirect branch"
    elif any(THUNK.search(r) for r in relocs) or THUNK.search(operand):
        return "retpoline thunk (an indirect call)"
    return None


def arm64_indirect(func, text, relocs):
    """Why the arm64 instruction TEXT breaks rule 1, or None."""
    mnemonic = text.split()[0] if text else ""
    operand = text.split(None, 1)[1].strip() if len(text.split()) > 1 else ""
    if mnemonic == "ret" and operand not in ("", "x30"):
        return "return through another register than x30"
    if not ARM64_INDIRECT.match(mnemonic):
        return None
    if (func, " ".join(text.split())) == (ARM64_GATE[0], ARM64_GATE[1].replace("\t", " ")):
        return None
    return "indirect branch"


def check(path):
    arch = machine(path)
    if arch == EM_X86_64:
        objdump, indirect = "objdump", x86_indirect
    elif arch == EM_AARCH64:
        objdump, indirect = "aarch64-linux-gnu-objdump", arm64_indirect
    else:
        sys.exit(f"{path}: ELF machine {arch}: neither x86-64 nor arm64")
    problems = []
    readers = set()
    indirects = 0
    iterators = trace_iterators()
    table = objects(path, objdump)
    for func, off, text, fixups, end in disassemble(path, objdump):
        relocs = []
        for at, kind, target in fixups:
            bias = 0
            if kind in X86_PC_RELATIVE and end is not None:
                bias = end - at
            relocs.append(named(target, table, bias))
        where = f"{func}+{off:#x}: {text}"
        why = indirect(func, text, relocs)
        if why:
            indirects += 1
            if not (KCALL.match(func) or func in iterators):
                problems.append(f"{why} at {where}")
        for r in relocs:
            if r == TABLE or r.startswith(TABLE + "+") or r.startswith(TABLE + "-"):
                if TABLE_READERS.match(func):
                    readers.add(func)
                else:
                    problems.append(f"{TABLE} read outside cs_sym_*() at {where}")
    return problems, readers, indirects


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    path = sys.argv[1]
    problems, readers, indirects = check(path)
    # C reads the table by its name: a build that reached it through a
    # section anchor (arm64 without -fno-section-anchors) would hide reads.
    if not problems and READER_IN_C not in readers:
        problems.append(f"{READER_IN_C} does not read {TABLE} by name: "
                        "is this clusterswap.ko, built by its Kbuild?")
    if problems:
        print(f"gate-check: {path}: {len(problems)} violation(s)")
        for p in problems:
            print(f"  {p}")
        return 1
    print(f"gate-check: {path}: ok ({indirects} indirect branches, only in the gate, cs_kcall_* "
          f"and the {len(trace_iterators())} tracepoint iterators; "
          f"{TABLE} read only by {', '.join(sorted(readers))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
