#!/usr/bin/env python3
"""Prove on a built clusterswap.ko that no indirect branch can reach a kernel
address the module resolved from kallsyms.

Debian's 6.12 kernel runs with IBT on CPUs that have it: an indirect CALL or
JMP to a function whose ENDBR was sealed at boot is a fatal #CP.  QEMU does not
enforce IBT, so no VM test can catch such a call; this check does, on the
object code itself.  Two rules:

 1. The module contains no indirect call or jump: no "call *", no "jmp *",
    no call or jump to a retpoline thunk (__x86_indirect_thunk_*, which the
    kernel rewrites to "call *%reg" on IBT machines).  Two exceptions:
     - a paravirt call through pv_ops, which the kernel patches into direct
       code at boot and which never holds a module-resolved address;
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
    cs_sym_* functions of module/symbols.c and cs_sym_call of module/gate.S,
    which hand addresses only to the assembly gate (a RET transfer) or out
    as plain numbers.

Usage: ibt_check.py MODULE.ko   (exit 0: clean; 1: violations, listed)
"""
import os
import re
import subprocess
import sys

TABLE = "cs_resolved"
TABLE_READERS = re.compile(r"^cs_sym_")
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
RELOC_RE = re.compile(r"^\s+([0-9a-f]+): (R_X86_64_\w+)\s+(\S+)$")


def disassemble(path):
    out = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", path],
                         check=True, capture_output=True, text=True).stdout
    func = None
    insns = []  # (func, offset, text, [reloc symbols])
    for line in out.splitlines():
        m = FUNC_RE.match(line)
        if m:
            func = m.group(1)
            continue
        m = RELOC_RE.match(line)
        if m and insns:
            insns[-1][3].append(m.group(3))
            continue
        m = INSN_RE.match(line)
        if m and func:
            insns.append((func, int(m.group(1), 16), m.group(2).strip(), []))
    return insns


def check(path):
    problems = []
    readers = set()
    branches = 0
    iterators = trace_iterators()
    for func, off, text, relocs in disassemble(path):
        words = text.split()
        mnemonic = words[1] if words and words[0] in ("notrack", "bnd") else (words[0] if words else "")
        operand = text.split(None, 2 if words and words[0] in ("notrack", "bnd") else 1)[-1] if len(words) > 1 else ""
        where = f"{func}+{off:#x}: {text}"
        if mnemonic.startswith(("call", "jmp")):
            branches += 1
            if KCALL.match(func) or func in iterators:
                pass
            elif operand.startswith("*"):
                if not any(PARAVIRT.match(r) for r in relocs):
                    problems.append(f"indirect branch at {where}")
            elif any(THUNK.search(r) for r in relocs) or THUNK.search(operand):
                problems.append(f"retpoline thunk (an indirect call) at {where}")
        for r in relocs:
            if r == TABLE or r.startswith(TABLE + "+") or r.startswith(TABLE + "-"):
                if TABLE_READERS.match(func):
                    readers.add(func)
                else:
                    problems.append(f"{TABLE} read outside cs_sym_*() at {where}")
    return problems, readers, branches


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    path = sys.argv[1]
    problems, readers, branches = check(path)
    if not readers and not problems:
        problems.append(f"{TABLE} is never read: is this clusterswap.ko?")
    if problems:
        print(f"ibt-check: {path}: {len(problems)} violation(s)")
        for p in problems:
            print(f"  {p}")
        return 1
    print(f"ibt-check: {path}: ok ({branches} branches, indirect ones only in cs_kcall_* "
          f"and the {len(trace_iterators())} tracepoint iterators; "
          f"{TABLE} read only by {', '.join(sorted(readers))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
