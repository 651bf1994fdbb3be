#!/usr/bin/env bash
# Seed 003's non-blocking broadcasts and reductions with job.collectives.broadcast|reduce=triggered
# against the library's signalling protocol (binomial / recursive_doubling select it for them): the
# program's element-by-element checks pass with both, on 8 PEs; with triggered the NICs ran every
# broadcast and integer reduction (summary nic.triggered: 4 rounds x 4 each), several outstanding
# on the set at once, each on resources of its own (nonblocking_peak_per_pe >= 8); the double max
# kept the protocol with one notice; the waits of shmemx_wait_request are waits on the calls'
# counters (`broadcast@0..7`, `reduce@0..7` in the trace); the hosts issued fewer operations.
# Usage: offload.sh SHMEMSIM_RUN PROGRAM WORKDIR
set -u
run=$1 program=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "nbc_offload_data: $*"; exit 1; }
for alg in protocol triggered; do
  if [ $alg = triggered ]; then set -- --set job.collectives.broadcast=triggered --set job.collectives.reduce=triggered
  else set -- --set job.collectives.broadcast=binomial --set job.collectives.reduce=recursive_doubling; fi
  "$run" -np 8 "$@" --out "$work/$alg" "$program" >"$work/$alg.out" 2>"$work/$alg.err" ||
    fail "$alg: exit status $? ($(tail -1 "$work/$alg.err"))"
  grep -q "^nbc_offload_data: OK on 8 PEs$" "$work/$alg.out" || fail "$alg: the program's checks failed: $(cat "$work/$alg.out")"
done
grep -q "job.collectives.reduce=triggered: floating-point reductions are not offloaded (the NICs would combine in arrival order); non-blocking reductions run as the library's signalling protocol$" \
  "$work/triggered.err" || fail "triggered: no notice for the double reduction: $(cat "$work/triggered.err")"
grep -q "non-blocking broadcasts" "$work/triggered.err" && fail "triggered: the broadcasts were not offloaded: $(cat "$work/triggered.err")"
python3 - "$work" <<'PY' || exit 1
import json, sys
work = sys.argv[1]
def fail(why):
    print("nbc_offload_data:", why); sys.exit(1)
P = json.load(open(f"{work}/protocol/summary.json"))
T = json.load(open(f"{work}/triggered/summary.json"))
if "triggered" in P["nic"]: fail("the protocol used triggered operations")
t = T["nic"]["triggered"]
if t["broadcasts"] != 16 or t["reductions"] != 16 or t["nonblocking"] != 32:
    fail(f"the NICs ran {t['broadcasts']} broadcasts, {t['reductions']} reductions, {t['nonblocking']} non-blocking; not 16, 16, 32")
if t["nonblocking_peak_per_pe"] < 8: fail(f"at most {t['nonblocking_peak_per_pe']} calls outstanding on a PE, not 8")
waits = {}
for line in open(f"{work}/triggered/trace.evt"):
    f = line.split()
    if f and f[0] == "wait" and "@" in f[6]:
        waits[f[6]] = waits.get(f[6], 0) + 1
for w in ("broadcast@0..7", "reduce@0..7"):
    if waits.get(w, 0) == 0: fail(f"triggered: no waits on {w}: {waits}")
pi, ti = P["operations"]["issued"], T["operations"]["issued"] - t["released"]
if not ti < pi: fail(f"the hosts issued {ti} operations offloaded, not fewer than the protocol's {pi}")
print(f"nbc_offload_data: OK: the NICs ran {t['nonblocking']} non-blocking calls, up to {t['nonblocking_peak_per_pe']} "
      f"outstanding per PE; hosts' operations {ti} against {pi}; simulated {T['sim_time_s'] * 1e6:.1f} us against "
      f"{P['sim_time_s'] * 1e6:.1f} us; CTs per endpoint {T['nic']['cts_peak_per_endpoint']} against {P['nic']['cts_peak_per_endpoint']}")
PY
