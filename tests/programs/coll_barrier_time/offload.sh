#!/usr/bin/env bash
# job.collectives.barrier=triggered against tree, the same binomial tree driven by the hosts:
# coll_barrier_time's checks pass with both; the NICs send the same messages (the same number);
# with triggered, the NICs release them (summary nic.triggered.released, none failed) so the hosts
# issue at most a quarter of what they issue with tree (what is left: team splits' own
# collectives); and a 16-PE barrier takes less simulated time, since no host wakes up to forward.
# Usage: offload.sh SHMEMSIM_RUN PROGRAM WORKDIR
set -u
run=$1 program=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "coll_barrier_offload: $*"; exit 1; }
for alg in tree triggered; do
  "$run" -np 16 --set job.collectives.barrier=$alg --out "$work/$alg" "$program" >"$work/$alg.out" 2>"$work/$alg.err" ||
    fail "$alg: exit status $? ($(tail -1 "$work/$alg.err"))"
  grep -q "^coll_barrier_time: OK on 16 PEs$" "$work/$alg.out" || fail "$alg: the program's checks failed: $(cat "$work/$alg.out")"
done
python3 - "$work" <<'PY' || exit 1
import json, re, sys
work = sys.argv[1]
def load(alg):
    s = json.load(open(f"{work}/{alg}/summary.json"))
    t = float(re.search(r"barrier_time: p=16 ([0-9.]+) us", open(f"{work}/{alg}.out").read()).group(1))
    return s, t
tree, t_tree = load("tree")
trig, t_trig = load("triggered")
def fail(why):
    print("coll_barrier_offload:", why); sys.exit(1)
if "triggered" in tree["nic"]: fail("tree used triggered operations")
released = trig["nic"]["triggered"]["released"]
if trig["nic"]["triggered"]["failed"] != 0: fail("triggered operations failed")
if trig["operations"]["issued"] != tree["operations"]["issued"]:
    fail(f"different messages: {trig['operations']['issued']} with triggered, {tree['operations']['issued']} with tree")
host_trig = trig["operations"]["issued"] - released
host_tree = tree["operations"]["issued"]
if not host_trig * 4 <= host_tree: fail(f"hosts issued {host_trig} messages with triggered, {host_tree} with tree")
if not t_trig < t_tree: fail(f"a 16-PE barrier took {t_trig} us with triggered, {t_tree} us with tree")
print(f"coll_barrier_offload: OK: host-issued messages {host_trig} (triggered) vs {host_tree} (tree); "
      f"16-PE barrier {t_trig} us vs {t_tree} us")
PY
