#!/usr/bin/env bash
# The cluster paths of docs/cluster.md, run on this machine:
#  1. a sweep's exported lines run by GNU parallel, then --collect: the same results.csv,
#     results.json and points.csv as the sweep run locally;
#  2. the SLURM array script docs/cluster/sweep-array.sbatch, its array tasks run by GNU parallel
#     (SLURM_ARRAY_TASK_ID 1..N, one line per task, then LINES_PER_TASK=3): the same files again;
#     a failed run makes its task fail; a task past the last line is refused in one line;
#  3. docs/cluster/emulate.sbatch over three "hosts" (loopback addresses) with a host file.
# Skipped (status 77) when GNU parallel is not installed (scripts/setup installs it).
# Usage: sweep_parallel.sh BIN_DIR SOURCE_DIR EMU_PROGRAM WORK_DIR
set -u
bin=$1 src=$2 program=$3 work=$4
command -v parallel >/dev/null || { echo "GNU parallel is not installed: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "cluster: $*"; exit 1; }
array=$src/docs/cluster/sweep-array.sbatch
cat > s.json <<'JSON'
{"platform": {"nodes": 4}, "traffic": {"pattern": "alltoall", "size": 8},
 "sweep": {"cartesian": [{"key": "traffic.size", "values": [8, 64, 512]}]}, "repeat": 2}
JSON
"$bin/shmemsim" sweep s.json -o local --quiet || fail "the local sweep failed"
same_results() { # DIR: its collected files equal the local sweep's
  for f in results.csv results.json points.csv; do
    cmp -s "local/$f" "$1/$f" || fail "$1/$f differs from the local sweep's"
  done
}
# 1. GNU parallel on the exported lines.
"$bin/shmemsim" sweep s.json -o byparallel --export byparallel.txt 2>/dev/null || fail "--export failed"
[ "$(wc -l < byparallel.txt)" -eq 6 ] || fail "--export wrote $(wc -l < byparallel.txt) lines, expected 6"
parallel --will-cite -j 2 < byparallel.txt || fail "GNU parallel failed"
"$bin/shmemsim" sweep --collect byparallel --quiet || fail "--collect after GNU parallel failed"
same_results byparallel
# 2. The SLURM array script, its tasks run by GNU parallel as SLURM would run them.
"$bin/shmemsim" sweep s.json -o byarray --export byarray.txt 2>/dev/null || fail "--export failed"
seq 6 | parallel --will-cite -j 2 SLURM_ARRAY_TASK_ID={} "$array" byarray.txt || fail "an array task failed"
"$bin/shmemsim" sweep --collect byarray --quiet || fail "--collect after the array failed"
same_results byarray
"$bin/shmemsim" sweep s.json -o bychunks --export bychunks.txt 2>/dev/null || fail "--export failed"
seq 2 | parallel --will-cite -j 2 SLURM_ARRAY_TASK_ID={} LINES_PER_TASK=3 "$array" bychunks.txt || fail "a chunked task failed"
"$bin/shmemsim" sweep --collect bychunks --quiet || fail "--collect after the chunked array failed"
same_results bychunks
out=$(SLURM_ARRAY_TASK_ID=7 "$array" bychunks.txt 2>&1); status=$?
[ "$status" -eq 2 ] && [ "$out" = "sweep-array.sbatch: task 7 has no line: bychunks.txt has 6 lines (1 per task)" ] ||
  fail "a task past the end: status $status, '$out'"
out=$("$array" bychunks.txt 2>&1); status=$?
[ "$status" -eq 2 ] && [[ $out == *"SLURM_ARRAY_TASK_ID is '', not a task number"* ]] || fail "no task id: status $status, '$out'"
# A run that fails (its scenario made invalid after export) fails its task with the run's status.
sed -i 's/"alltoall"/"nosuchpattern"/' s.json
out=$(SLURM_ARRAY_TASK_ID=1 "$array" bychunks.txt 2>&1); status=$?
[ "$status" -eq 2 ] && [[ $out == *"line 1 of bychunks.txt: run status 2"* ]] || fail "a failed run: status $status, '$out'"
# 3. The emulated job script over three loopback "hosts".
out=$(SHMEMSIM_BIN=$bin SHMEMSIM_HOSTS=$src/tests/programs/emulator/three_hosts.txt SHMEMSIM_NP=6 \
      SHMEMSIM_ADDRESS=127.0.0.1 SHMEMSIM_ARGS="--wall-time-limit 60s" "$src/docs/cluster/emulate.sbatch" "$program" 2>&1)
status=$?
[ "$status" -eq 0 ] && [[ $out == *"emu_slow: OK on 6 PEs"* ]] || fail "emulate.sbatch: status $status: $out"
out=$(env -u SLURM_NTASKS -u SHMEMSIM_NP "$src/docs/cluster/emulate.sbatch" "$program" 2>&1); status=$?
[ "$status" -eq 2 ] && [[ $out == "emulate.sbatch: no number of PEs"* ]] || fail "emulate.sbatch without PEs: status $status, '$out'"
echo "cluster: OK"
