#!/usr/bin/env bash
# PEs on three "hosts" (loopback addresses 127.0.0.2-4, three_hosts.txt): with block placement PEs
# 0-1 run on the first, 2-3 on the second, 4-5 on the third; each PE listens on its host's
# address (read from /proc while the job runs) and the job's data checks pass.
# Usage: hosts.sh SHMEMSIM_RUN PROGRAM WORKDIR   (PROGRAM: emu_slow)
set -u
run=$1 program=$2 work=$3
here=$(dirname "$0")
. "$here/listening.sh"
rm -rf "$work" && mkdir -p "$work"
"$run" --emulate -np 6 --hosts "$here/three_hosts.txt" --wall-time-limit 60s "$program" >"$work/out" 2>"$work/err" &
launcher=$!
fail() { echo "emu_hosts: $*"; echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"; kill "$launcher" 2>/dev/null; exit 1; }
# The listening address (hex, as /proc/net/tcp writes it) of process $1.
listen_address() {
  local pid=$1 inodes=() fd link
  for fd in /proc/"$pid"/fd/*; do
    link=$(readlink "$fd" 2>/dev/null) || continue
    [[ $link =~ ^socket:\[([0-9]+)\]$ ]] && inodes+=("${BASH_REMATCH[1]}")
  done
  [ ${#inodes[@]} -gt 0 ] || return 0
  awk -v list=" ${inodes[*]} " 'NR > 1 && $4 == "0A" && index(list, " " $10 " ") { split($2, a, ":"); print a[1] }' /proc/net/tcp
}
declare -A seen
for _ in $(seq 100); do
  pes=($(children_of "$launcher"))
  seen=()
  for p in "${pes[@]}"; do
    a=$(listen_address "$p")
    [ -n "$a" ] && seen[$a]=$(( ${seen[$a]:-0} + 1 ))
  done
  [ "${seen[0200007F]:-0}" -eq 2 ] && [ "${seen[0300007F]:-0}" -eq 2 ] && [ "${seen[0400007F]:-0}" -eq 2 ] && break
  sleep 0.05
done
[ "${seen[0200007F]:-0}" -eq 2 ] && [ "${seen[0300007F]:-0}" -eq 2 ] && [ "${seen[0400007F]:-0}" -eq 2 ] ||
  fail "PEs did not listen 2 each on 127.0.0.2, .3 and .4 (seen: $(for k in "${!seen[@]}"; do echo -n "$k=${seen[$k]} "; done))"
wait "$launcher"
status=$?
[ "$status" -eq 0 ] || fail "exit status $status, expected 0"
grep -q "^emu_slow: OK on 6 PEs$" "$work/out" || fail "the job's data check did not pass"
echo "emu_hosts: OK"
