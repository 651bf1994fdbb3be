#!/usr/bin/env bash
# Emulated traces carry the program's own computation (docs/emulator.md, "Traces"): the time each
# thread spends outside the library is a `comp` event, so `shmemsim report`'s overlap analysis
# works on emulated runs. trace_overlap puts 64 KiB and computes, 6 rounds, with a blocking put or
# with put_nbi, compute, quiet. Every round's computation must be in the trace, and with put_nbi
# some communication must be hidden behind it (its ACK comes back while the PE computes). Real
# time decides how much: a blocking put returns once its source is copied, so its ACK too may
# arrive during the computation (overlap anywhere from 0 to 0.9 here): no bound is asserted on it.
# Usage: overlap.sh SHMEMSIM_RUN SHMEMSIM PROGRAM WORKDIR   (PROGRAM: trace_overlap)
set -u
run=$1 shmemsim=$2 program=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "emu_overlap: $*"; for f in "$work"/*.out "$work"/*.err; do echo "--- $f"; head -c 3000 "$f"; done; exit 1; }

# Each thread's overlap ratio in DIR/report.json, one "pe ratio" line per thread.
ratios() {
  awk '/^  "threads": \[/ { in_threads = 1 }
       in_threads && /^      "pe": / { pe = $2; sub(/,/, "", pe) }
       in_threads && /^      "overlap": \{/ { in_overlap = 1 }
       in_overlap && /^        "ratio": / { r = $2; sub(/,/, "", r); print pe, r; in_overlap = 0 }' "$1/report.json"
}

for mode in blocking pipelined; do
  "$run" --emulate -np 2 --wall-time-limit 60s --out "$work/$mode" "$program" "$mode" >"$work/$mode.out" 2>"$work/$mode.err" ||
    fail "$mode: exit status $?"
  grep -q "trace_overlap: PE 0 $mode ok" "$work/$mode.out" || fail "$mode: the data checks did not pass"
  for pe in 0 1; do
    n=$(awk -v pe="$pe" '$1 == "comp" && $3 == pe && $4 == 0 { n++ } END { print n + 0 }' "$work/$mode/trace.evt")
    [ "$n" -ge 6 ] || fail "$mode: PE $pe's main thread has $n comp events (at least one per round expected)"
  done
  "$shmemsim" report "$work/$mode" --quiet >"$work/report-$mode.out" 2>"$work/report-$mode.err" || fail "$mode: shmemsim report failed"
  ratios "$work/$mode" >"$work/$mode.ratios"
  [ "$(wc -l <"$work/$mode.ratios")" = 2 ] || fail "$mode: report.json does not give both PEs' overlap ($(cat "$work/$mode.ratios"))"
done
awk '$2 > 0 { found = 1 } END { exit !found }' "$work/pipelined.ratios" ||
  fail "put_nbi, compute, quiet: overlap ratios $(tr '\n' ' ' <"$work/pipelined.ratios")(pe ratio): nothing hidden"
echo "emu_overlap: blocking $(tr '\n' ' ' <"$work/blocking.ratios")pipelined $(tr '\n' ' ' <"$work/pipelined.ratios")(pe ratio)"
