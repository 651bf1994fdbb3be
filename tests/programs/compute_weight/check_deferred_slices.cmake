# Deferred time slices (sim/DeferredSlices): a slice that nothing else can observe is not executed
# by SimGrid, its end date is computed with SimGrid's own operations. Every program below runs three
# times: SHMEMSIM_DEFER_SLICES=off (every slice an execution), on (the default) and check (every
# slice that would be deferred is executed, and the run aborts unless SimGrid's clock then reads the
# computed date). stdout, stderr, summary.json and the trace of the off and on runs must be
# identical byte for byte, and the check run must have checked at least one slice where the case
# says deferral happens.
# -DBIN=build/bin -DPROGS=build/tests/programs/bin -DKERNELS=tools/calibrate -DOUT=work directory
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(failures "")

# run CASE MODE PROGRAM PES ARGS...: ${OUT}/CASE_MODE (RUN_OPTIONS from the caller); the status is
# kept (a case may end at its time limit on purpose).
function(run case mode program pes)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SHMEMSIM_DEFER_SLICES=${mode}
                          ${BIN}/shmemsim-run -np ${pes} --wall-time-limit 300s --set output.trace=ops
                          --out ${OUT}/${case}_${mode} ${RUN_OPTIONS} ${program} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_FILE ${OUT}/${case}_${mode}.stdout ERROR_FILE ${OUT}/${case}_${mode}.stderr)
  file(WRITE ${OUT}/${case}_${mode}.status "${rc}\n")
endfunction()

# check CASE DEFERS PROGRAM PES ARGS...: the three runs; DEFERS: YES if slices must be deferred.
function(check case defers program pes)
  foreach(mode off on check)
    run(${case} ${mode} ${program} ${pes} ${ARGN})
  endforeach()
  foreach(f .status .stdout .stderr /summary.json /trace.evt)
    file(READ ${OUT}/${case}_off${f} a)
    file(READ ${OUT}/${case}_on${f} b)
    string(REPLACE "${case}_off" "${case}_MODE" a "${a}") # the run directory, named in stderr and the trace
    string(REPLACE "${case}_on" "${case}_MODE" b "${b}")
    if(NOT a STREQUAL b)
      set(failures "${failures}\n  ${case}: ${f} differs (${OUT}/${case}_off${f} vs ${OUT}/${case}_on${f})")
    endif()
  endforeach()
  file(READ ${OUT}/${case}_check.stderr err)
  if(NOT err MATCHES "SHMEMSIM_DEFER_SLICES=check: ([0-9]+) time slices would have been deferred")
    set(failures "${failures}\n  ${case}: the check run did not finish its report (${OUT}/${case}_check.stderr)")
  elseif(defers AND CMAKE_MATCH_1 EQUAL 0)
    set(failures "${failures}\n  ${case}: no slice was deferred: the case does not test deferral")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# A calibration kernel alone (every slice deferred), and on 1 PE with a 500 ns quantum.
execute_process(COMMAND ${BIN}/shmemsim-cc -O2 ${KERNELS}/stencil.c -o ${OUT}/stencil RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "shmemsim-cc ${KERNELS}/stencil.c failed")
endif()
set(RUN_OPTIONS "")
check(stencil YES ${OUT}/stencil 1 4)
set(RUN_OPTIONS --set platform.instruction_time=1ns --set platform.latency.int=1ps --set job.compute_quantum=300ns)
check(compute_weight YES ${PROGS}/compute_weight 1 work)
# Spin-waits released by a put, by a sibling thread, by a store through shmem_ptr; 2 PEs of a node.
set(RUN_OPTIONS "")
check(spin_put NO ${PROGS}/spin_wait 2 put)
check(spin_sibling YES ${PROGS}/spin_wait 2 sibling)
check(spin_slice YES ${PROGS}/spin_wait 2 slice)
set(RUN_OPTIONS --pes-per-node 2)
check(spin_ptr YES ${PROGS}/spin_wait 2 ptr)
# An endless loop: the time limit ends it at the same date, naming the same PE.
set(RUN_OPTIONS --sim-time-limit 2ms)
check(spin_forever YES ${PROGS}/spin_wait 2 forever)
# Computation free (job.compute=none): a spin-wait's slice is a poll (a sleep), deferred alike.
set(RUN_OPTIONS --set job.compute=none)
check(none_spin_put NO ${PROGS}/spin_wait 3 put)
check(none_spin_sibling NO ${PROGS}/spin_wait 2 sibling)
set(RUN_OPTIONS --set job.compute=none --sim-time-limit 2ms)
check(none_spin_forever YES ${PROGS}/spin_wait 2 forever)
# Computation between communication: the paper's Mandelbrot (PE 0 works while the others wait),
# the integer sort, threads inside PEs, OpenMP.
set(RUN_OPTIONS "")
check(mandelbrot NO ${PROGS}/listing3_mandelbrot 4)
check(intsort NO ${PROGS}/listing4_intsort 4 fadd)
check(mandel_threads NO ${PROGS}/mandel_threads 2 -v 2 -t 3 -w 64 -h 32 -c 2 -i 200)
set(RUN_OPTIONS -x OMP_NUM_THREADS=3)
check(omp_loops NO ${PROGS}/omp_loops 2)

if(failures)
  message(FATAL_ERROR "deferred time slices changed a run:${failures}")
endif()
message(STATUS "deferred time slices: runs identical, dates checked")
