#!/usr/bin/env python3
"""Attribute CPU-clock samples of one process (perf record -e cpu-clock -c PERIOD
--call-graph fp, then perf script) to the parts of the Portals 4 reference
implementation, and divide by the number of operations.

usage: attribute.py PERF_SCRIPT_OUTPUT N_OPERATIONS

A sample belongs to the first (outermost) of these functions on its stack:
the application calls (PtlPut, PtlAtomic, PtlFetchAtomic, PtlCTWait), the
target's handling of a request (process_tgt), the initiator's handling of an
ACK or reply (process_init), the progress thread's receive poll (udp_receive).
Each is split into user and kernel time (leaf frame in the kernel: the UDP
transport's system calls and the loopback network stack), and the part under
mr_lookup (memory-registration lookup, a cache miss without ummunotify) is
given apart (user time only)."""
import re
import sys

CLASSES = ["PtlPut", "PtlAtomic", "PtlFetchAtomic", "PtlCTWait", "process_tgt",
           "process_init", "udp_receive"]


def samples(path):
    head = re.compile(r"^\S.*?\s+(\d+)\s+[\d.]+:\s+(\d+)\s+cpu-clock")
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            m = head.match(line)
            if m:
                if cur:
                    yield cur
                cur = [int(m.group(2)), []]
            elif line.strip() and cur is not None:
                parts = line.strip().split(None, 1)
                if len(parts) == 2:
                    sym = parts[1].rsplit(" (", 1)
                    name = re.sub(r"\+0x[0-9a-f]+$", "", sym[0])
                    dso = sym[1].rstrip(")") if len(sym) == 2 else ""
                    cur[1].append((name, dso))
    if cur:
        yield cur


def main():
    path, nops = sys.argv[1], int(sys.argv[2])
    total = 0
    acc = {}
    for period, stack in samples(path):
        total += period
        cls = "other"
        for name, _ in reversed(stack):  # outermost first
            if name in CLASSES:
                cls = name
                break
        kernel = bool(stack) and "kernel" in stack[0][1]
        mr = any(name == "mr_lookup" for name, _ in stack)
        a = acc.setdefault(cls, [0, 0, 0])
        a[0] += period
        a[1] += period if kernel else 0
        a[2] += period if mr and not kernel else 0
    print(f"total {total / 1e6:.1f} ms of CPU, {nops} operations")
    print(f"{'part':16} {'ms':>9} {'ns/op':>8} {'kernel ns/op':>13} {'user ns/op':>11} {'of it mr_lookup':>16}")
    for cls in CLASSES + ["other"]:
        if cls in acc:
            t, k, m = acc[cls]
            print(f"{cls:16} {t / 1e6:9.1f} {t / nops:8.0f} {k / nops:13.0f} {(t - k) / nops:11.0f} {m / nops:15.0f}")


main()
