#!/usr/bin/env bash
# A connection without the job's token is refused and the job goes on: while an emulated job runs,
# connect to its bootstrap service (a wrong token) and to a PE's data port (junk bytes); the job
# must finish with status 0 and its data checks passing, and each refusal is one line. Then a
# flood of 300 bootstrap connections: 3 lines in all, then one line with the count at the end.
# Usage: intruder.sh SHMEMSIM_RUN PROGRAM WORKDIR   (PROGRAM: emu_slow)
set -u
run=$1 program=$2 work=$3
. "$(dirname "$0")/listening.sh"
trap "" PIPE # the refused connections are closed under our writes
rm -rf "$work" && mkdir -p "$work"
"$run" --emulate -np 3 --wall-time-limit 60s "$program" >"$work/out" 2>"$work/err" &
launcher=$!
fail() { echo "emu_intruder_refused: $*"; echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"; kill "$launcher" 2>/dev/null; exit 1; }
# The launcher listens first, the PEs once they are up.
for _ in $(seq 100); do
  boot=$(listening_ports "$launcher" | head -1)
  pes=($(children_of "$launcher"))
  data=""
  [ ${#pes[@]} -eq 3 ] && data=$(listening_ports "${pes[1]}" | head -1)
  [ -n "$boot" ] && [ -n "$data" ] && break
  sleep 0.05
done
[ -n "$boot" ] && [ -n "$data" ] || fail "did not find the job's listening ports"
exec 3<>/dev/tcp/127.0.0.1/"$boot" && printf 'HELLO %064d 0 boot\nPUT addr.0 127.0.0.1:1\n' 0 >&3 && exec 3>&-
exec 4<>/dev/tcp/127.0.0.1/"$data" && printf 'GET / HTTP/1.0\r\n\r\n%060d' 0 >&4 && exec 4>&-
flood=0
for _ in $(seq 300); do
  exec 3<>/dev/tcp/127.0.0.1/"$boot" 2>/dev/null || break
  printf 'HELLO %064d 1 boot\n' 0 >&3 2>/dev/null && flood=$((flood + 1))
  exec 3>&-
done
wait "$launcher"
status=$?
[ "$status" -eq 0 ] || fail "exit status $status, expected 0"
grep -q "^emu_slow: OK on 3 PEs$" "$work/out" || fail "the job's data check did not pass"
grep -q "^shmemsim-run: refused a bootstrap connection from 127.0.0.1 without the job's token$" "$work/err" ||
  fail "no line about the refused bootstrap connection"
grep -q "^shmemsim-run: PE 1 refused a data connection from 127.0.0.1 without the job's token$" "$work/err" ||
  fail "no line about the refused data connection"
[ "$flood" -gt 10 ] || fail "the flood made only $flood connections while the job ran"
lines=$(grep -c "refused a bootstrap connection" "$work/err")
[ "$lines" -eq 3 ] || fail "$lines lines about refused bootstrap connections, expected 3 (then a count)"
grep -q "^shmemsim-run: refused a bootstrap connection from 127.0.0.1 without the job's token (further ones are counted, not shown)$" "$work/err" ||
  fail "the third line does not say that further ones are counted"
grep -Eq "^shmemsim-run: refused [0-9]+ bootstrap connections without the job's token in all \(3 shown\)$" "$work/err" ||
  fail "no line with the count of refused bootstrap connections"
echo "emu_intruder_refused: OK"
