#!/usr/bin/env bash
# A PE killed while its job streams through the shared-memory rings (SIGKILL: nothing of its own
# runs) ends the job with its status and one line naming it, no PE survives, and nothing is left in
# /dev/shm (the segment is a memfd: it has no name there). The PEs must have mapped the segment
# (their /proc/PID/maps show it): else this would test the TCP path.
# Usage: shm_kill.sh SHMEMSIM_RUN PROGRAM WORKDIR   (PROGRAM: emu_stream)
set -u
run=$1 program=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
before=$(ls -A /dev/shm | grep -ci shmemsim)
"$run" --emulate -np 4 --set emulator.stall_timeout=0s --wall-time-limit 60s "$program" 0 >"$work/out" 2>"$work/err" &
launcher=$!
pes=()
for _ in $(seq 200); do
  pes=($(pgrep -P "$launcher"))
  [ ${#pes[@]} -eq 4 ] && grep -q "memfd:shmemsim-emu" "/proc/${pes[3]}/maps" 2>/dev/null && break
  sleep 0.05
done
[ ${#pes[@]} -eq 4 ] || { echo "emu_shm_kill: the 4 PE processes did not start"; kill "$launcher"; exit 1; }
for p in "${pes[@]}"; do
  grep -q "memfd:shmemsim-emu" "/proc/$p/maps" || { echo "emu_shm_kill: PE process $p has no shared segment"; kill "$launcher"; exit 1; }
done
sleep 0.5 # streaming through the rings
kill -KILL "${pes[1]}"
wait "$launcher"
status=$?
[ "$status" -eq 137 ] || { echo "emu_shm_kill: exit status $status, expected 137"; cat "$work/err"; exit 1; }
grep -q "^shmemsim-run: PE 1 .*SIGKILL" "$work/err" || { echo "emu_shm_kill: no line naming PE 1 and SIGKILL"; cat "$work/err"; exit 1; }
for p in "${pes[@]}"; do
  [ -d "/proc/$p" ] && [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ] &&
    { echo "emu_shm_kill: PE process $p survived"; exit 1; }
done
after=$(ls -A /dev/shm | grep -ci shmemsim)
[ "$after" -le "$before" ] || { echo "emu_shm_kill: files left in /dev/shm: $(ls -A /dev/shm | grep -i shmemsim)"; exit 1; }
echo "emu_shm_kill: OK"
