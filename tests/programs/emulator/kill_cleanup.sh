#!/usr/bin/env bash
# A launcher stopped by SIGTERM or SIGINT (or killed outright with SIGKILL) leaves no PE process
# and no temporary file: run a job that never ends (PE 0 waits for a flag nobody sets), signal the
# launcher once its PEs are up, then look for survivors and for files left in TMPDIR.
# Usage: kill_cleanup.sh SHMEMSIM_RUN PROGRAM WORKDIR   (PROGRAM: deadlock)
set -u
run=$1 program=$2 work=$3
. "$(dirname "$0")/listening.sh"
rm -rf "$work" && mkdir -p "$work/tmp"
export TMPDIR=$work/tmp
for sig in TERM INT KILL; do
  "$run" --emulate -np 4 --set emulator.stall_timeout=0s --wall-time-limit 60s "$program" >"$work/$sig.out" 2>"$work/$sig.err" &
  launcher=$!
  pes=()
  for _ in $(seq 100); do
    pes=($(children_of "$launcher"))
    [ ${#pes[@]} -eq 4 ] && [ -n "$(listening_ports "${pes[3]}")" ] && break
    sleep 0.05
  done
  [ ${#pes[@]} -eq 4 ] || { echo "emu_kill_cleanup: SIG$sig: the 4 PE processes did not start"; exit 1; }
  sleep 0.3
  kill -"$sig" "$launcher"
  wait "$launcher"
  status=$?
  expected=$((128 + $(kill -l "$sig")))
  [ "$status" -eq "$expected" ] || { echo "emu_kill_cleanup: SIG$sig: exit status $status, expected $expected"; cat "$work/$sig.err"; exit 1; }
  if [ "$sig" != KILL ]; then
    grep -q "^shmemsim-run: interrupted by SIG$sig; the run did not finish$" "$work/$sig.err" ||
      { echo "emu_kill_cleanup: SIG$sig: no 'interrupted' line"; cat "$work/$sig.err"; exit 1; }
  fi
  for _ in $(seq 50); do # SIGKILL: the PEs die with their parent (PR_SET_PDEATHSIG), at once
    left=0
    for p in "${pes[@]}"; do [ -d "/proc/$p" ] && [ "$(awk '{print $3}' /proc/$p/stat 2>/dev/null)" != Z ] && left=1; done
    [ $left -eq 0 ] && break
    sleep 0.05
  done
  [ $left -eq 0 ] || { echo "emu_kill_cleanup: SIG$sig: PE processes ${pes[*]} survived the launcher"; exit 1; }
done
[ -z "$(ls -A "$work/tmp")" ] || { echo "emu_kill_cleanup: files left in TMPDIR: $(ls -A "$work/tmp")"; exit 1; }
echo "emu_kill_cleanup: OK"
