#!/usr/bin/env bash
# Seed 003's non-blocking barrier with job.collectives.barrier=triggered against the library's
# signalling protocol (dissemination): the program's checks pass with both (nbc_offload strict);
# with triggered the NICs run every barrier (summary nic.triggered.barriers counts the program's
# 3 per round and its first), the hosts issue no operation inside shmemx_barrier_aset_req or
# shmemx_test_request (the start posts triggered operations, a test reads a counter), and the
# waits of shmemx_wait_request are waits on the set's barrier (`barrier@0..4` in the trace).
# Usage: offload.sh SHMEMSIM_RUN PROGRAM WORKDIR
set -u
run=$1 program=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "nbc_offload: $*"; exit 1; }
for alg in dissemination triggered; do
  "$run" -np 5 --set job.collectives.barrier=$alg --out "$work/$alg" "$program" strict >"$work/$alg.out" 2>"$work/$alg.err" ||
    fail "$alg: exit status $? ($(tail -1 "$work/$alg.err"))"
  grep -q "^nbc_offload: OK on 5 PEs$" "$work/$alg.out" || fail "$alg: the program's checks failed: $(cat "$work/$alg.out")"
done
python3 - "$work" <<'PY' || exit 1
import json, sys
work = sys.argv[1]
def fail(why):
    print("nbc_offload:", why); sys.exit(1)
def scan(alg):
    open_, ops, waits = {}, {}, {}
    for line in open(f"{work}/{alg}/trace.evt"):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "call":
            open_[(f[2], f[3])] = f[4]
        elif f[0] == "ret":
            open_.pop((f[2], f[3]), None)
        elif f[0] == "op" and (f[3], f[4]) in open_:
            r = open_[(f[3], f[4])]; ops[r] = ops.get(r, 0) + 1
        elif f[0] == "wait" and (f[2], f[3]) in open_:
            key = (open_[(f[2], f[3])], f[6]); waits[key] = waits.get(key, 0) + 1
    return ops, waits
ROUNDS = 6
host_ops, host_waits = scan("dissemination")
trig_ops, trig_waits = scan("triggered")
if "triggered" in json.load(open(f"{work}/dissemination/summary.json"))["nic"]: fail("dissemination used triggered operations")
s = json.load(open(f"{work}/triggered/summary.json"))["nic"]["triggered"]
if s["barriers"] < 3 * ROUNDS + 1: fail(f"the NICs ran {s['barriers']} barriers, fewer than the program's {3 * ROUNDS + 1}")
if host_ops.get("shmemx_barrier_aset_req", 0) + host_ops.get("shmemx_test_request", 0) == 0:
    fail("the signalling protocol issued no operation in the barriers' calls")
for r in ("shmemx_barrier_aset_req", "shmemx_test_request"):
    if trig_ops.get(r, 0) != 0: fail(f"triggered: the hosts issued {trig_ops[r]} operations inside {r}")
if trig_waits.get(("shmemx_wait_request", "barrier@0..4"), 0) < 5:
    fail(f"triggered: no waits on barrier@0..4 in shmemx_wait_request: {trig_waits}")
if any(w.startswith("barrier@") for (_, w) in host_waits): fail("dissemination: waits on an offloaded barrier")
print(f"nbc_offload: OK: the NICs ran {s['barriers']} barriers; signalling protocol: "
      f"{host_ops.get('shmemx_barrier_aset_req', 0) + host_ops.get('shmemx_test_request', 0)} host operations in the starts and tests")
PY
