#!/usr/bin/env bash
# Emulated runs write the simulator's run directory (docs/emulator.md, "Traces"): with --out DIR
# the PEs' traces are merged into DIR/trace.evt (+ Perfetto, Paje), with summary.json and
# scenario.json, and `shmemsim report`, `diagram` and `plot` read them. The program (emu_trace)
# issues on context 1 of each of its 4 PEs 40 put_nbi, 6 atomic adds and 10 gets to its right
# neighbour: the trace must hold exactly those operations on context 1, each with one message
# delivered and completed, and the quiets' waits. With reordering injected, deliveries flagged out
# of order appear (as many as the launcher counted); with total data ordering none. The SHMEM
# routines each thread was in are spans (call/ret), as in a simulated trace.
# Usage: trace.sh SHMEMSIM_RUN SHMEMSIM PROGRAM WORKDIR
set -u
run=$1 shmemsim=$2 program=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "emu_trace: $*"; for f in "$work"/*.out "$work"/*.err; do echo "--- $f"; head -c 3000 "$f"; done; exit 1; }

# emulate NAME OPTIONS...: a 4-PE run into $work/NAME; its data checks pass.
emulate() {
  local name=$1; shift
  "$run" --emulate -np 4 --wall-time-limit 60s --set emulator.stall_timeout=20s --out "$work/$name" "$@" "$program" \
    >"$work/$name.out" 2>"$work/$name.err" || fail "$name: exit status $?"
  grep -q "emu_trace: OK on 4 PEs" "$work/$name.out" || fail "$name: the data checks did not pass"
  for f in trace.evt trace.json trace.paje summary.json scenario.json; do
    [ -s "$work/$name/$f" ] || fail "$name: no $f"
  done
  ls -a "$work/$name" | grep -q '^\.pe-' && fail "$name: the PEs' own trace files were left behind"
  grep -q '"mode": "emulated"' "$work/$name/summary.json" || fail "$name: summary.json does not say emulated"
  return 0
}

# The operations of context 1, their messages, deliveries and completions, counted from the trace.
check_ops() {
  local name=$1 evt="$work/$1/trace.evt"
  awk '
    $1 == "pe" { pes++ }
    $1 == "op" && $6 == 1 { ops[$9]++; mine[$3] = 1; if ($8 > maxseq[$4]) maxseq[$4] = $8 }
    $1 == "msg" && ($4 in mine) { msgs++; msg_of[$3] = 1; per_op[$4]++ }
    $1 == "dlv" && ($3 in msg_of) { dlv[$3]++ }
    $1 == "done" && ($3 in msg_of) { done[$3]++ }
    $1 == "wait" && $5 == 1 && $7 == "quiet" { quiet[$8]++ }
    $1 == "ctx" && $5 == 1 { ctx[$7]++ }
    END {
      bad = ""
      if (pes != 4) bad = bad " pe-lines=" pes
      if (ops["put_nbi"] != 160 || ops["amo"] != 24 || ops["get"] != 40)
        bad = bad " ops(put_nbi,amo,get)=" ops["put_nbi"] "," ops["amo"] "," ops["get"]
      if (msgs != 224) bad = bad " messages=" msgs
      for (o in mine) if (per_op[o] != 1) { bad = bad " op " o " has " per_op[o] " messages"; break }
      for (m in msg_of) if (dlv[m] != 1 || done[m] != 1) { bad = bad " message " m " delivered " dlv[m] "x, done " done[m] "x"; break }
      for (p = 0; p < 4; p++) if (maxseq[p] != 56) bad = bad " PE " p " last issued count " maxseq[p]
      if (quiet[40] != 4 || quiet[46] != 4) bad = bad " quiet waits for 40/46: " quiet[40] "/" quiet[46]
      if (ctx["create"] != 4 || ctx["destroy"] != 4) bad = bad " ctx create/destroy " ctx["create"] "/" ctx["destroy"]
      print bad
    }' "$evt"
}

# Deliveries flagged out of order in the trace.
ooo_in_trace() { awk '$1 == "dlv" && $4 == 1 { n++ } END { print n + 0 }' "$work/$1/trace.evt"; }
ooo_in_summary() { sed -n 's/.*"out_of_order_deliveries": \([0-9]*\).*/\1/p' "$work/$1/summary.json"; }

emulate plain
bad=$(check_ops plain)
[ -z "$bad" ] || fail "plain: trace does not match the program's operations:$bad"
# The SHMEM routines each thread was in, as the simulator records them (call/ret spans): every PE
# entered shmem_barrier_all 3 times and shmem_ctx_quiet twice, and every span ended.
spans=$(awk '$1 == "call" { calls++; open[$3 " " $4]++; by[$5 " " $3]++ } $1 == "ret" { rets++; open[$3 " " $4]-- }
  END { bad = ""; if (calls == 0 || calls != rets) bad = bad " calls/rets " calls "/" rets
        for (k in open) if (open[k] != 0) bad = bad " unbalanced " k
        for (p = 0; p < 4; p++) if (by["shmem_barrier_all " p] != 3 || by["shmem_ctx_quiet " p] != 2)
          bad = bad " PE " p " barrier/quiet spans " by["shmem_barrier_all " p] "/" by["shmem_ctx_quiet " p]
        print bad }' "$work/plain/trace.evt")
[ -z "$spans" ] || fail "plain: routine spans:$spans"
"$shmemsim" report "$work/plain" >"$work/report.out" 2>"$work/report.err" || fail "shmemsim report failed"
[ -s "$work/plain/report.json" ] || fail "no report.json"
ops=$(awk '$1 == "op" { n++ } END { print n + 0 }' "$work/plain/trace.evt")
grep -q "\"operations\": $ops," "$work/plain/report.json" || fail "report.json does not count the trace's $ops operations"
"$shmemsim" diagram "$work/plain" >"$work/diagram.out" 2>"$work/diagram.err" || fail "shmemsim diagram failed"
[ -s "$work/plain/diagram.svg" ] || fail "no diagram.svg"

emulate reorder --set emulator.reorder.probability=0.3 --set emulator.jitter=20us --seed 3 \
  --set platform.nic.features.total_data_ordering=false
bad=$(check_ops reorder)
[ -z "$bad" ] || fail "reorder: trace does not match the program's operations:$bad"
n=$(ooo_in_trace reorder)
[ "$n" -gt 0 ] || fail "reorder: no delivery flagged out of order"
[ "$n" = "$(ooo_in_summary reorder)" ] || fail "reorder: $n out-of-order deliveries in the trace, $(ooo_in_summary reorder) counted"
# Out of order is the overtaking delivery (the simulated NIC's definition), depth counts the
# later ones that came before: overtaken ones have a depth (flags and depths are recounted
# against the dates by shmemsim_trace_audit in emu_trace_attrib_*).
awk '$1 == "dlv" && $5 >= 1 { n++ } END { exit n > 0 ? 0 : 1 }' "$work/reorder/trace.evt" || fail "reorder: no delivery was overtaken (depth >= 1)"

emulate tdo --set emulator.reorder.probability=0.3 --set emulator.jitter=20us --set platform.nic.features.total_data_ordering=true
[ "$(ooo_in_trace tdo)" = 0 ] || fail "tdo: deliveries flagged out of order under total data ordering"

"$shmemsim" plot "$work/plain" "$work/reorder" --x summary.out_of_order_deliveries --y summary.wall_time_s -o "$work/plot.svg" \
  >"$work/plot.out" 2>"$work/plot.err" || fail "shmemsim plot failed"
[ -s "$work/plot.svg" ] || fail "no plot.svg"
echo "emu_trace: OK ($n out-of-order deliveries flagged)"
