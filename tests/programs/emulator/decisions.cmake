# The injected decisions depend on the seed only: two runs with the same seed print the same
# decisions (emulator.log_decisions, one line each, sorted: the PEs interleave), a third with
# another seed other ones; every run's data checks pass. The program (coll_basic) sends the same
# number of messages on each pair at every run (no polling loop sends), so whole logs compare.
# cmake -DRUN=shmemsim-run -DPROGRAM=coll_basic -DWORK=dir -P decisions.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(decisions seed out_var)
  execute_process(COMMAND ${RUN} --emulate -np 3 --seed ${seed} --wall-time-limit 60s --set emulator.log_decisions=true
                          --set emulator.reorder.probability=0.25 --set emulator.jitter=10us ${PROGRAM}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status TIMEOUT 90)
  file(WRITE ${WORK}/seed${seed}.stderr "${err}")
  if(NOT status EQUAL 0 OR NOT out MATCHES "coll_basic: OK on 3 PEs")
    message(FATAL_ERROR "seed ${seed}: status ${status}\n${out}\n${err}")
  endif()
  string(REGEX MATCHALL "shmemsim-emu: decision [^\n]*" lines "${err}")
  list(SORT lines)
  list(LENGTH lines n)
  if(n LESS 100)
    message(FATAL_ERROR "seed ${seed}: only ${n} decisions logged")
  endif()
  string(REGEX MATCHALL "hold [1-9]" held "${lines}")
  if(NOT held)
    message(FATAL_ERROR "seed ${seed}: no request was held back")
  endif()
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()
decisions(7 a)
decisions(7 b)
decisions(8 c)
if(NOT a STREQUAL b)
  file(WRITE ${WORK}/a.txt "${a}")
  file(WRITE ${WORK}/b.txt "${b}")
  message(FATAL_ERROR "the same seed gave different decisions (${WORK}/a.txt, b.txt)")
endif()
if(a STREQUAL c)
  message(FATAL_ERROR "seeds 7 and 8 gave the same decisions")
endif()
message(STATUS "emu_decisions_seeded: OK")
