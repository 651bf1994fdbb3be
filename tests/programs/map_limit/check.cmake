# A run within the kernel's limit of memory mappings (README, "Size"), against a limit lowered with
# SHMEMSIM_MAX_MAP_COUNT: 400 PEs of a program are refused in one line below what they need (which
# the line says), run compact (copies in anonymous memory, heaps side by side, no stack guard pages:
# one notice line) just above it, without guard pages only (one notice line) between what they need
# without and with them, and run with them above. Never an abort.
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

# Far too low: refused in one line naming the limit, what the run needs at the least (compact copies
# and heaps, no guard pages) and how many PEs fit.
run(1000)
set(advice "^shmemsim-run: 400 PEs need about ([0-9]+) memory mappings \\(each PE's program copy, symmetric heap and stack\\), more than this system's vm.max_map_count allows \\(1000\\): raise it \\(sudo sysctl -w vm.max_map_count=[0-9]+000\\) or run at most ([0-9]+) PEs\n$")
if(NOT rc EQUAL 2 OR NOT err MATCHES "${advice}")
  message(FATAL_ERROR "limit 1000: expected one line refusing 400 PEs, status 2; got ${rc}:\n${err}")
endif()
set(need ${CMAKE_MATCH_1})
set(fit ${CMAKE_MATCH_2})
if(need LESS 1000 OR fit GREATER 399)
  message(FATAL_ERROR "limit 1000: ${fit} PEs said to fit (need ${need} for 400)")
endif()

# Just above that: the copies in anonymous memory, the heaps side by side, no guard pages (one
# notice line), and every PE still has its own static data and heap.
math(EXPR compact "${need} + 20")
run(${compact})
if(NOT rc EQUAL 0 OR NOT out MATCHES "OK on 400 PEs\n"
   OR NOT err MATCHES "^shmemsim-run: 400 PEs: no guard page below each thread's stack, program copies in anonymous memory and symmetric heaps side by side, to stay within vm.max_map_count \\(${compact}\\): a stack overflow is not caught \\(sudo sysctl -w vm.max_map_count=([0-9]+)000 keeps them\\)\n$")
  message(FATAL_ERROR "limit ${compact}: expected the compact run and one notice line; got ${rc}:\n${out}\n${err}")
endif()
set(guarded "${CMAKE_MATCH_1}000")

# Without guard pages each PE's stack is one mapping, with them two: 400 more for 400 PEs. Between
# the compact need plus a file-backed copy and heap per further PE (3 mappings, or a few more) and
# the guarded need: no guard pages only. Tried at 3, 4 and 5 mappings per PE until one is that.
set(bare_seen FALSE)
foreach(per_pe 3 4 5)
  math(EXPR bare "${need} + ${per_pe} * 398 + 10")
  if(bare GREATER_EQUAL guarded OR bare_seen)
    break()
  endif()
  run(${bare})
  if(NOT rc EQUAL 0 OR NOT out MATCHES "OK on 400 PEs\n")
    message(FATAL_ERROR "limit ${bare}: expected the run to succeed; got ${rc}:\n${out}\n${err}")
  endif()
  if(err MATCHES "^shmemsim-run: 400 PEs: no guard page below each thread's stack, to stay within vm.max_map_count \\(${bare}\\): a stack overflow is not caught")
    set(bare_seen TRUE)
  elseif(NOT err MATCHES "program copies in anonymous memory")
    message(FATAL_ERROR "limit ${bare}: expected a notice line without guard pages; got:\n${err}")
  endif()
endforeach()
if(NOT bare_seen)
  message(FATAL_ERROR "no limit between ${need} and ${guarded} ran without guard pages only")
endif()
run(${guarded})
if(NOT rc EQUAL 0 OR NOT out MATCHES "OK on 400 PEs\n" OR NOT err STREQUAL "")
  message(FATAL_ERROR "limit ${guarded}: expected the run with guard pages, nothing on stderr; got ${rc}:\n${out}\n${err}")
endif()
math(EXPR below "${need} - 20")
run(${below})
if(NOT rc EQUAL 2 OR NOT err MATCHES "^shmemsim-run: 400 PEs need about [0-9]+ memory mappings")
  message(FATAL_ERROR "limit ${below}: expected the run refused; got ${rc}:\n${err}")
endif()

# One PE (no plan is made for it) against a limit below what the launcher itself maps: the same
# line naming the limit, never a failed mapping reported as a bad program.
execute_process(COMMAND ${CMAKE_COMMAND} -E env SHMEMSIM_MAX_MAP_COUNT=100
                        ${RUN} -np 1 --quiet --set job.compute=none ${PROG}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "(^|\n)shmemsim-run: platform: [^\n]*\n" "\\1" err "${err}")
if(NOT rc EQUAL 2 OR NOT err MATCHES "^shmemsim-run: 1 PEs need about [0-9]+ memory mappings \\(each PE's program copy, symmetric heap and stack\\), more than this system's vm.max_map_count allows \\(100\\): raise it \\(sudo sysctl -w vm.max_map_count=[0-9]+000\\) or run at most 0 PEs\n$")
  message(FATAL_ERROR "1 PE, limit 100: expected one line naming the limit, status 2; got ${rc}:\n${err}")
endif()
message(STATUS "400 PEs need ${need} mappings compact, ${guarded} with guard pages (${bare}: without them only); ${fit} fit in 1000")
