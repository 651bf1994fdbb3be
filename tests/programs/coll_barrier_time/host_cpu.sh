#!/usr/bin/env bash
# The host CPU time of barriers (summary `collectives.barrier`, docs/runs.md) against a
# recomputation from the trace, for the host-driven algorithms and the triggered barrier, and the
# offloaded barriers' waits in the trace and its reports (docs/traces.md):
#  - dissemination and tree: the Portals calls a thread makes inside its barrier routines are its
#    `op` lines between the routine's `call` and `ret`, each costing initiate_overhead, plus its
#    stalls on shared cache lines there (`lock` lines; none here: coherence off, and no noise, whose
#    detours the summary leaves out and a `lock` line includes); their sum is the summary's host_cpu_s.
#    Coherence stays off because a stall is a SimGrid sleep, and SimGrid ends activities due within
#    its timing precision (1 ns) of another together: a `lock` line may then be up to 1 ns shorter
#    than the stall the summary counts (with coherence on: 505 of 5,921 stalls, 218 ns in 6.6 ms);
#  - triggered: every barrier routine holds exactly one wait of `barrier@LIST` (its team, 0..p-1);
#    PE r of p posts (r != 0) + (its children in the binomial tree) + 1 (its arrival) operations,
#    each costing initiate_overhead; their sum over the barrier spans is the summary's host_cpu_s.
#    `shmemsim report` counts those waits (by_what.barrier, by_collective) and trace.json names
#    them; a barrier's messages are all the NICs' (the hosts issue none inside barrier spans);
#  - at 16 PEs the triggered barrier costs the hosts less CPU per call than dissemination (the
#    default) and more than tree (2 Portals calls per PE against 3): printed, both checked.
# Usage: host_cpu.sh SHMEMSIM_RUN SHMEMSIM PROGRAM WORKDIR
set -u
run=$1 shmemsim=$2 program=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "coll_barrier_host_cpu: $*"; exit 1; }
for alg in dissemination tree triggered; do
  "$run" -np 16 --set job.collectives.barrier=$alg --set platform.nic.initiate_overhead=1us --set platform.noise.enabled=false \
    --set platform.coherence.same_socket=0ns --set platform.coherence.cross_socket=0ns --out "$work/$alg" \
    "$program" >"$work/$alg.out" 2>"$work/$alg.err" || fail "$alg: exit status $? ($(tail -1 "$work/$alg.err"))"
  grep -q "^coll_barrier_time: OK on 16 PEs$" "$work/$alg.out" || fail "$alg: the program's checks failed: $(cat "$work/$alg.out")"
done
"$shmemsim" report "$work/triggered" --quiet >/dev/null || fail "shmemsim report failed"
python3 - "$work" <<'PY' || exit 1
import json, sys
work = sys.argv[1]
O = 1_000_000  # initiate_overhead, ps
BARRIERS = {"shmem_team_sync", "shmem_barrier_all", "shmem_barrier", "shmem_sync_all", "shmem_sync"}
def fail(why):
    print("coll_barrier_host_cpu:", why); sys.exit(1)

def kids(r, n):
    limit = n if r == 0 else r & -r
    m, c = 1, 0
    while m < limit and r + m < n:
        c, m = c + 1, m * 2
    return c

def spans(alg):
    """Per barrier span (pe, thr): its `op` count, `lock` time and offloaded waits."""
    open_, out = {}, []
    for line in open(f"{work}/{alg}/trace.evt"):
        f = line.split()
        if not f or f[0].startswith("#") or f[0] in ("pe", "link"):
            continue
        tag = f[0]
        if tag == "call":
            k = (f[2], f[3])
            open_[k] = {"routine": f[4], "ops": 0, "lock": 0, "waits": []} if f[4] in BARRIERS else None
        elif tag == "ret":
            s = open_.pop((f[2], f[3]), None)
            if s is not None:
                s["pe"] = int(f[2]); out.append(s)
        elif tag == "op" and open_.get((f[3], f[4])):
            open_[(f[3], f[4])]["ops"] += 1
        elif tag == "lock" and open_.get((f[2], f[3])):
            open_[(f[2], f[3])]["lock"] += int(f[4])
        elif tag == "wait" and open_.get((f[2], f[3])) and "@" in f[6]:  # barrier_all's quiet: not counted
            open_[(f[2], f[3])]["waits"].append(f[6])
    return out

def summary(alg):
    return json.load(open(f"{work}/{alg}/summary.json"))["collectives"]["barrier"]

per_call = {}
for alg in ("dissemination", "tree", "triggered"):
    s, sp = summary(alg), spans(alg)
    if s["algorithm"] != alg: fail(f"{alg}: summary says algorithm {s['algorithm']}")
    if s["calls"] != len(sp): fail(f"{alg}: {s['calls']} barrier calls in the summary, {len(sp)} spans in the trace")
    if alg == "triggered":
        busy = 0
        for x in sp:
            if len(x["waits"]) != 1 or not x["waits"][0].startswith("barrier@0.."):
                fail(f"triggered: a {x['routine']} span of PE {x['pe']} holds waits {x['waits']}, not one barrier@0..p-1")
            if x["ops"] != 0: fail(f"triggered: PE {x['pe']} issued {x['ops']} operations inside {x['routine']}")
            p = int(x["waits"][0].split("..")[1]) + 1
            r = x["pe"]
            busy += ((r != 0) + kids(r, p) + 1) * O
    else:
        if any(x["waits"] for x in sp):
            fail(f"{alg}: offloaded barrier waits in a host-driven run")
        busy = sum(x["ops"] * O + x["lock"] for x in sp)
    got = round(s["host_cpu_s"] * 1e12)
    if abs(got - busy) > len(sp):  # seconds printed as doubles: at most ~1 ps of rounding a call
        fail(f"{alg}: summary host_cpu_s {s['host_cpu_s']} against {busy * 1e-12} recomputed from the trace")
    if not 0 < s["host_cpu_s"] < s["inside_s"]: fail(f"{alg}: host CPU {s['host_cpu_s']} s of {s['inside_s']} s inside")
    per_call[alg] = s["host_cpu_per_call_s"]

rep = json.load(open(f"{work}/triggered/report.json"))["waits"]
calls = summary("triggered")["calls"]
if rep["by_what"].get("barrier", {}).get("count", 0) < calls:
    fail(f"report: {rep['by_what'].get('barrier')} offloaded barrier waits for {calls} barrier calls")
if rep.get("by_collective", {}).get("barrier@0..15", {}).get("count", 0) < 16:
    fail(f"report: no barrier@0..15 waits in by_collective: {rep.get('by_collective')}")
if '"barrier@0..15"' not in open(f"{work}/triggered/trace.json").read():
    fail("trace.json has no slice named barrier@0..15")
if not per_call["tree"] < per_call["triggered"] < per_call["dissemination"]:
    fail(f"host CPU per barrier call: tree {per_call['tree']}, triggered {per_call['triggered']}, "
         f"dissemination {per_call['dissemination']}")
print("coll_barrier_host_cpu: OK: host CPU per barrier call (16 PEs, teams of 2-16, 1 us a Portals call): " +
      ", ".join(f"{a} {per_call[a] * 1e6:.3f} us" for a in ("dissemination", "tree", "triggered")))
PY
