# A deadlock is a deadlock with a simulated-time limit too (README, exit status): SimGrid runs its
# clock on to the limit when nothing is left to do, and the run must still end with status 3 and
# the same lines and summary.json as without the limit (the date the deadlock began). Cases: a PE
# waiting for a flag nobody sets, a PE that ends while the others wait for it, two threads locking
# two mutexes in opposite orders. A limit before the deadlock still ends the run with status 4.
# Called with -DRUN (shmemsim-run) -DDEADLOCK -DTHREAD_DEADLOCK (the programs) -DSCENARIO -DWORK.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# Runs `prog` with arguments ARGN into WORK/<tag>, with --sim-time-limit `limit` unless it is
# "none"; sets <tag>_rc, <tag>_err and <tag>_summary, addresses (which the reports name, and which
# vary from run to run) replaced by 0xADDR.
function(run tag pes limit prog)
  set(options "")
  if(NOT limit STREQUAL "none")
    set(options --sim-time-limit ${limit})
  endif()
  execute_process(COMMAND ${RUN} --scenario ${SCENARIO} -np ${pes} ${options} --quiet --out ${WORK}/${tag} --trace off
                          ${prog} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(READ ${WORK}/${tag}/summary.json summary)
  string(REGEX REPLACE "0x[0-9a-f]+" "0xADDR" err "${err}")
  string(REGEX REPLACE "0x[0-9a-f]+" "0xADDR" summary "${summary}")
  set(${tag}_rc "${rc}" PARENT_SCOPE)
  set(${tag}_err "${err}" PARENT_SCOPE)
  set(${tag}_summary "${summary}" PARENT_SCOPE)
endfunction()

foreach(case "flag;3;${DEADLOCK}" "exit;3;${DEADLOCK};exit" "threads;1;${THREAD_DEADLOCK}")
  list(GET case 0 name)
  list(GET case 1 pes)
  list(GET case 2 prog)
  set(args "")
  list(LENGTH case n)
  if(n GREATER 3)
    list(SUBLIST case 3 -1 args)
  endif()
  run(${name} ${pes} none ${prog} ${args})
  run(${name}_limit ${pes} 1s ${prog} ${args})
  if(NOT ${name}_rc EQUAL 3 OR NOT ${name}_err MATCHES "(^|\n)shmemsim-run: deadlock at simulated time ")
    message(FATAL_ERROR "${name}: expected a deadlock (status 3) without a limit, got ${${name}_rc}:\n${${name}_err}")
  endif()
  if(NOT ${name}_limit_rc EQUAL 3 OR NOT "${${name}_limit_err}" STREQUAL "${${name}_err}")
    message(FATAL_ERROR "${name}: with --sim-time-limit 1s, expected status 3 and the same lines as without it; got status "
                        "${${name}_limit_rc}:\n${${name}_limit_err}\nwithout the limit:\n${${name}_err}")
  endif()
  if(NOT "${${name}_limit_summary}" STREQUAL "${${name}_summary}")
    message(FATAL_ERROR "${name}: summary.json differs with --sim-time-limit 1s:\n${${name}_limit_summary}\nwithout:\n${${name}_summary}")
  endif()
endforeach()

# The limit itself: 1 ns is before the deadlock (the PEs are still starting).
run(early 3 1ns ${DEADLOCK})
if(NOT early_rc EQUAL 4 OR NOT early_err MATCHES "(^|\n)shmemsim-run: simulated-time limit of 1ns reached; still running:\n")
  message(FATAL_ERROR "a limit before the deadlock: expected status 4, got ${early_rc}:\n${early_err}")
endif()
message(STATUS "deadlocks reported alike with and without --sim-time-limit")
