#!/usr/bin/env bash
# job.collectives.broadcast / reduce = triggered against the host-driven algorithm (binomial,
# recursive_doubling) on coll_offload (16 PEs): the program's checks pass with both (the data
# broadcast and the integer reductions are exact); with triggered, the summary counts the
# offloaded calls (36 broadcasts, 144 reductions) (nic.triggered.broadcasts / reductions), the NICs release triggered operations
# and none fails, and the hosts make fewer Portals calls, so spend less CPU time issuing (each call
# costs the caller platform.nic.initiate_overhead on its core: calls = messages the hosts issued +
# operations they posted for the NICs). Prints both algorithms' host calls, host CPU time per PE
# and time per call + sync.
# Usage: offload.sh SHMEMSIM_RUN PROGRAM WORKDIR (bcast|reduce)
set -u
run=$1 program=$2 work=$3 what=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "coll_offload_$what: $*"; exit 1; }
if [ "$what" = bcast ]; then key=broadcast host=binomial; else key=reduce host=recursive_doubling; fi
for alg in $host triggered; do
  "$run" -np 16 --set job.collectives.$key=$alg --out "$work/$alg" "$program" "$what" >"$work/$alg.out" 2>"$work/$alg.err" ||
    fail "$alg: exit status $? ($(tail -1 "$work/$alg.err"))"
  grep -q "^coll_offload: OK on 16 PEs$" "$work/$alg.out" || fail "$alg: the program's checks failed: $(cat "$work/$alg.out")"
done
python3 - "$work" "$what" "$host" <<'PY' || exit 1
import json, re, sys
work, what, host = sys.argv[1:4]
name = f"coll_offload_{what}"
def fail(why):
    print(f"{name}: {why}"); sys.exit(1)
def seconds(v):
    if isinstance(v, (int, float)): return float(v)
    m = re.fullmatch(r"([0-9.eE+-]+)\s*(s|ms|us|ns|ps)", str(v).strip())
    if not m: fail(f"cannot read the time {v!r}")
    return float(m.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}[m.group(2)]
def load(alg):
    s = json.load(open(f"{work}/{alg}/summary.json"))
    sc = json.load(open(f"{work}/{alg}/scenario.json"))
    t = float(re.search(rf"{what}_time: p=16 ([0-9.]+) us", open(f"{work}/{alg}.out").read()).group(1))
    trig = s["nic"].get("triggered", {})
    calls = s["operations"]["issued"] - trig.get("released", 0) + trig.get("posted_by_hosts", 0)
    return s, sc, t, trig, calls
hs, hsc, t_host, htrig, host_calls = load(host)
ts, tsc, t_trig, trig, trig_calls = load("triggered")
if htrig: fail(f"{host} used triggered operations")
counted = trig.get("broadcasts" if what == "bcast" else "reductions")
calls = 36 if what == "bcast" else 4 * 36  # 4 warm-up iterations + 32; reduce: 4 reductions each
if counted != calls: fail(f"nic.triggered counts {counted} offloaded calls, not {calls}")
if trig.get("released", 0) <= 0 or trig.get("failed") != 0: fail(f"triggered operations: {trig}")
overhead = seconds(tsc["platform"]["nic"]["initiate_overhead"])
if not trig_calls < host_calls: fail(f"the hosts made {trig_calls} Portals calls with triggered, {host_calls} with {host}")
print(f"{name}: OK: host Portals calls {trig_calls} (triggered) vs {host_calls} ({host}); host CPU issuing per PE "
      f"{trig_calls * overhead / 16 * 1e6:.2f} us vs {host_calls * overhead / 16 * 1e6:.2f} us; "
      f"call + sync {t_trig} us vs {t_host} us")
PY
