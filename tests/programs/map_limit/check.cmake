# A run within the kernel's limit of memory mappings (README, "Size"), against a limit lowered with
# SHMEMSIM_MAX_MAP_COUNT: 400 PEs of a program are refused in one line below what they need (which
# the line says), run without stack guard pages (one notice line) between what they need without and
# with them, and run with them above. Never an abort.
# Called with -DRUN (shmemsim-run) -DPROG (map_limit: "map_limit: OK on 400 PEs").
function(run limit)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SHMEMSIM_MAX_MAP_COUNT=${limit}
                          ${RUN} -np 400 --quiet --set job.compute=none ${PROG}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # The platform line and the placement notice (400 PEs share the nodes' cores) are not what this is about.
  string(REGEX REPLACE "(^|\n)shmemsim-run: platform: [^\n]*\n" "\\1" err "${err}")
  string(REGEX REPLACE "(^|\n)shmemsim-run: 400 PEs on [^\n]* share their node's [^\n]*\n" "\\1" err "${err}")
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

run(2000)
if(NOT rc EQUAL 2 OR NOT err MATCHES "^shmemsim-run: 400 PEs need about ([0-9]+) memory mappings \\(each PE's program copy, symmetric heap and stack\\), more than this system's vm.max_map_count allows \\(2000\\): raise it \\(sudo sysctl -w vm.max_map_count=[0-9]+000\\) or run at most ([0-9]+) PEs\n$")
  message(FATAL_ERROR "limit 2000: expected one line refusing 400 PEs, status 2; got ${rc}:\n${err}")
endif()
set(need ${CMAKE_MATCH_1})
set(fit ${CMAKE_MATCH_2})
if(fit LESS 50 OR fit GREATER 399)
  message(FATAL_ERROR "limit 2000: ${fit} PEs said to fit (need ${need} for 400)")
endif()

# Without guard pages each PE's stack is one mapping, with them two: 400 more for 400 PEs.
math(EXPR between "${need} + 200")
run(${between})
if(NOT rc EQUAL 0 OR NOT out MATCHES "OK on 400 PEs\n"
   OR NOT err MATCHES "^shmemsim-run: 400 PEs: no guard page below each thread's stack, to stay within vm.max_map_count \\(${between}\\): a stack overflow is not caught \\(sudo sysctl -w vm.max_map_count=[0-9]+000 keeps them\\)\n$")
  message(FATAL_ERROR "limit ${between}: expected the run without guard pages and one notice line; got ${rc}:\n${out}\n${err}")
endif()
math(EXPR above "${need} + 450")
run(${above})
if(NOT rc EQUAL 0 OR NOT out MATCHES "OK on 400 PEs\n" OR NOT err STREQUAL "")
  message(FATAL_ERROR "limit ${above}: expected the run with guard pages, nothing on stderr; got ${rc}:\n${out}\n${err}")
endif()
math(EXPR below "${need} - 50")
run(${below})
if(NOT rc EQUAL 2 OR NOT err MATCHES "^shmemsim-run: 400 PEs need about [0-9]+ memory mappings")
  message(FATAL_ERROR "limit ${below}: expected the run refused; got ${rc}:\n${err}")
endif()
message(STATUS "400 PEs need ${need} mappings without guard pages; ${fit} fit in 2000")
