#!/usr/bin/env bash
# Barriers while threads put on the shared default context, host-driven (tree) against offloaded
# (triggered), on slingshot-11 (shared cache lines on): the program's checks pass with both, with 0
# and 7 putting threads per PE; then, from the summaries (collectives.barrier, nic):
#  - tree: the host CPU per barrier call grows with the putters (its signals are Portals calls on
#    the shared default context: each stalls on the lines the putters' calls update);
#  - triggered: it grows too, but less (its posts share only the NI's request-buffer pool line with
#    the putters), and stays below tree's with 7 putters;
#  - the NIC resources the offloaded barrier holds per endpoint (CTs, MDs, triggered operations
#    pending) are the same with 0 and 7 putters: one set per PE and member list, not per thread.
# Usage: threads.sh SHMEMSIM_RUN PROGRAM WORKDIR
set -u
run=$1 program=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "coll_threads: $*"; exit 1; }
for alg in tree triggered; do
  for p in 0 7; do
    "$run" -np 8 --set platform.preset=slingshot-11 --set job.pes_per_node=1 --set job.collectives.barrier=$alg \
      --set output.trace=off --out "$work/$alg-$p" "$program" -p $p >"$work/$alg-$p.out" 2>"$work/$alg-$p.err" ||
      fail "$alg, $p putters: exit status $? ($(tail -1 "$work/$alg-$p.err"))"
    grep -q "^coll_threads: OK on 8 PEs$" "$work/$alg-$p.out" ||
      fail "$alg, $p putters: the program's checks failed: $(cat "$work/$alg-$p.out")"
  done
done
python3 - "$work" <<'PY' || exit 1
import json, sys
work = sys.argv[1]
def fail(why):
    print("coll_threads:", why); sys.exit(1)
S = {(a, p): json.load(open(f"{work}/{a}-{p}/summary.json")) for a in ("tree", "triggered") for p in (0, 7)}
cpu = {k: s["collectives"]["barrier"]["host_cpu_per_call_s"] * 1e6 for k, s in S.items()}
for k, s in S.items():
    if s["collectives"]["barrier"]["algorithm"] != k[0]: fail(f"{k}: algorithm {s['collectives']['barrier']['algorithm']}")
if not cpu[("tree", 7)] > 1.2 * cpu[("tree", 0)]:
    fail(f"tree: host CPU per barrier {cpu[('tree', 7)]:.3f} us with 7 putters, not above 1.2 x {cpu[('tree', 0)]:.3f} us without")
if not cpu[("triggered", 7)] > cpu[("triggered", 0)]:
    fail(f"triggered: host CPU per barrier {cpu[('triggered', 7)]:.3f} us with 7 putters, not above {cpu[('triggered', 0)]:.3f} us without")
if not cpu[("triggered", 7)] < cpu[("tree", 7)]:
    fail(f"7 putters: triggered {cpu[('triggered', 7)]:.3f} us of host CPU per barrier, not below tree's {cpu[('tree', 7)]:.3f} us")
held = lambda s: (s["nic"]["cts_peak_per_endpoint"], s["nic"]["mds_peak_per_endpoint"],
                  s["nic"]["triggered"]["peak_pending_per_endpoint"])
if held(S[("triggered", 0)]) != held(S[("triggered", 7)]):
    fail(f"triggered: NIC resources (CTs, MDs, pending) {held(S[('triggered', 0)])} without putters, {held(S[('triggered', 7)])} with 7")
if "triggered" in S[("tree", 7)]["nic"]: fail("tree used triggered operations")
print("coll_threads: OK: host CPU per barrier, 0 -> 7 putters: tree %.3f -> %.3f us, triggered %.3f -> %.3f us; "
      "triggered holds (CTs, MDs, pending) %s per endpoint either way" %
      (cpu[("tree", 0)], cpu[("tree", 7)], cpu[("triggered", 0)], cpu[("triggered", 7)], held(S[("triggered", 7)])))
PY
