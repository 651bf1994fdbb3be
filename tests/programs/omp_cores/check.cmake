# One PE on a node of 4 cores: 4 threads take about 1/4 of the time of 1 thread; 8 threads share
# the 4 cores and take no less than 4 threads. The default team (no OMP_NUM_THREADS) is the node's 4
# cores; job.threads.per_pe sets it, and OMP_NUM_THREADS wins over it. Work inside a critical
# section is serialized: 4 threads take 4 times as long as 1.
function(run_case env opts out_threads out_us)
  set(crit_var ${out_us}_crit)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${RUN} -np 1 --set platform.cores_per_node=4
                          --set platform.nic.progress_core=false ${opts} ${PROG}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "omp_cores: ([0-9]+) threads, parallel region ([0-9]+) us, critical ([0-9]+) us")
    message(FATAL_ERROR "run (${env} ${opts}) failed (${rc}):\n${out}\n${err}")
  endif()
  set(${out_threads} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${out_us} ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(${crit_var} ${CMAKE_MATCH_3} PARENT_SCOPE)
endfunction()

run_case("OMP_NUM_THREADS=1" "" n1 t1)
run_case("OMP_NUM_THREADS=4" "" n4 t4)
run_case("OMP_NUM_THREADS=8" "" n8 t8)
run_case("--unset=OMP_NUM_THREADS" "" nd td)
run_case("--unset=OMP_NUM_THREADS" "--set;job.threads.per_pe=2" np tp)
run_case("OMP_NUM_THREADS=3" "--set;job.threads.per_pe=2" ne te)
message(STATUS "1 / 4 / 8 threads on 4 cores: ${t1} / ${t4} / ${t8} us; default ${nd} threads ${td} us; "
               "job.threads.per_pe=2: ${np} threads; with OMP_NUM_THREADS=3: ${ne} threads")
if(NOT n1 EQUAL 1 OR NOT n4 EQUAL 4 OR NOT n8 EQUAL 8)
  message(FATAL_ERROR "OMP_NUM_THREADS not followed: teams of ${n1}, ${n4}, ${n8}")
endif()
if(NOT nd EQUAL 4 OR NOT np EQUAL 2 OR NOT ne EQUAL 3)
  message(FATAL_ERROR "default team sizes: ${nd} (expected 4 cores), job.threads.per_pe=2: ${np}, OMP_NUM_THREADS=3 over it: ${ne}")
endif()
math(EXPR r4 "100 * ${t4} / ${t1}")
if(r4 LESS 23 OR r4 GREATER 28)
  message(FATAL_ERROR "4 threads should take ~1/4 of 1 thread's time: ${t4} vs ${t1} us (${r4}%)")
endif()
math(EXPR r8 "100 * ${t8} / ${t4}")
if(r8 LESS 98 OR r8 GREATER 110)
  message(FATAL_ERROR "8 threads on 4 cores should take as long as 4 threads: ${t8} vs ${t4} us (${r8}%)")
endif()
if(NOT td EQUAL t4)
  message(FATAL_ERROR "the default team (4 cores) should time as 4 threads: ${td} vs ${t4} us")
endif()
# A critical section serializes: 4 threads take 4 times one thread's section.
math(EXPR rc4 "100 * ${t4_crit} / ${t1_crit}")
if(rc4 LESS 380 OR rc4 GREATER 420)
  message(FATAL_ERROR "4 threads through a critical section should take 4x one thread: ${t4_crit} vs ${t1_crit} us")
endif()
message(STATUS "ratios: 4/1 threads ${r4}%, 8/4 threads ${r8}%, critical 4/1 threads ${rc4}%")
