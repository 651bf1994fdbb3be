# Counted compute: the inline count (shmemsim-cc's default) charges exactly what counting by calls
# (SHMEMSIM_CC_COUNT=calls, every block calling the interposition library) charges, at the same
# points: each program below is built both ways (at the same path, one after the other) and run with
# the same options; stdout, summary.json and the traces must be identical byte for byte. The cache
# model is off (platform.cache.sampling=0): the two builds lay out the program's data differently
# (the inline count's loop slots are statics of the program), so their sampled cache lines differ;
# both report the same references at the same blocks (compute_weight_memory checks the model).
# -DBIN=build/bin -DSRC=tests/programs -DKERNELS=tools/calibrate -DOUT=work directory
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/prog)
set(failures "")

# build NAME MODE SOURCE FLAGS...: ${OUT}/prog/NAME, counted inline (MODE 1) or by calls.
function(build name mode source)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SHMEMSIM_CC_COUNT=${mode}
                          ${BIN}/shmemsim-cc -O2 -I${SRC}/common ${ARGN} ${source} -o ${OUT}/prog/${name}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "shmemsim-cc (SHMEMSIM_CC_COUNT=${mode}) ${source} failed: ${err}")
  endif()
endfunction()

# run NAME TAG PES ARGS...: a run of ${OUT}/prog/NAME (RUN_OPTIONS from the caller) into ${OUT}/TAG.
function(run name tag pes)
  execute_process(COMMAND ${BIN}/shmemsim-run -np ${pes} --wall-time-limit 120s --set output.trace=ops
                          --set platform.cache.sampling=0
                          --out ${OUT}/${tag} ${RUN_OPTIONS} ${OUT}/prog/${name} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_FILE ${OUT}/${tag}.stdout ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${tag}: shmemsim-run ${RUN_OPTIONS} ${name} ${ARGN} failed (${rc}): ${err}")
  endif()
endfunction()

# same CASE: the inline and calls runs of CASE are identical.
function(same case)
  foreach(f .stdout /summary.json /trace.evt)
    file(SHA256 ${OUT}/${case}_inline${f} a)
    file(SHA256 ${OUT}/${case}_calls${f} b)
    if(NOT a STREQUAL b)
      set(failures "${failures}\n  ${case}: ${f} differs (${OUT}/${case}_inline${f} vs ${OUT}/${case}_calls${f})")
    endif()
  endforeach()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# check CASE NAME SOURCE PES ARGS...: builds both ways, runs both, compares. FLAGS from the caller.
function(check case name source pes)
  foreach(mode inline calls)
    if(mode STREQUAL "inline")
      build(${name} 1 ${source} ${FLAGS})
    else()
      build(${name} calls ${source} ${FLAGS})
    endif()
    run(${name} ${case}_${mode} ${pes} ${ARGN})
  endforeach()
  same(${case})
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

# Many code shapes, threads and a busy wait on 3 PEs (2 on one node: they share its cores), sliced
# every 200 ns, then with the default quantum and no reorder window; and at -O3 and -O0.
set(RUN_OPTIONS --pes-per-node 2 --set job.compute_quantum=200ns)
check(paths_short count_paths ${SRC}/compute_weight/count_paths.c 3 1)
# Whole nanoseconds per instruction and a quantum of 100: slices end at the exact end of a block.
set(RUN_OPTIONS --pes-per-node 3 --set platform.instruction_time=1ns --set job.compute_quantum=100ns)
check(paths_exact count_paths ${SRC}/compute_weight/count_paths.c 3 1)
set(RUN_OPTIONS --set platform.reorder_window=0)
check(paths_nowindow count_paths ${SRC}/compute_weight/count_paths.c 3 1)
set(FLAGS -O3)
set(RUN_OPTIONS --pes-per-node 3 --set job.compute_quantum=100ns)
check(paths_o3 count_paths ${SRC}/compute_weight/count_paths.c 3 1)
set(FLAGS -O0)
check(paths_o0 count_paths ${SRC}/compute_weight/count_paths.c 2 1)
set(FLAGS "")

# compute_weight's modes, with their tests' costs (times are instruction counts, chains, windows) and,
# as in compute.cmake, without operating-system noise (the program compares identical loops' times).
set(RUN_OPTIONS --set platform.noise.enabled=false --set platform.instruction_time=1ns --set platform.latency.int=1ps --set job.compute_quantum=300ns)
check(weight_work compute_weight ${SRC}/compute_weight/compute_weight.c 1 work)
set(RUN_OPTIONS --set platform.noise.enabled=false --set platform.instruction_time=1ps --set platform.latency.int=1ps
    --set platform.latency.load=1ps --set platform.latency.fp_mul=1ps --set platform.latency.fp_add=100ns --set platform.reorder_window=65536)
check(weight_window compute_weight ${SRC}/compute_weight/compute_weight.c 1 window)
set(RUN_OPTIONS --set platform.noise.enabled=false --set platform.instruction_time=1ps --set platform.latency.int=1ps
    --set platform.divide_time=1ns)
check(weight_divide compute_weight ${SRC}/compute_weight/compute_weight.c 1 divide)

# The calibration kernels (their loops are what the inline path is for), sliced every 500 ns.
set(RUN_OPTIONS --set job.compute_quantum=500ns)
foreach(k spmv stencil short_chains chain_int pointer_chase bucket crc nbody divide)
  check(kernel_${k} ${k} ${KERNELS}/${k}.c 1 1)
endforeach()

if(failures)
  message(FATAL_ERROR "inline and calls counts differ:${failures}")
endif()
message(STATUS "inline and calls counts identical")
