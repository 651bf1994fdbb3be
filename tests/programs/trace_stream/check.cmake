# The recorder streams trace.evt through a reorder window bounded by the simulated clock and the
# intervals under way (computations, the library's lock, runs of time slices). Each run below is
# made twice: streamed (the default) and with every event held until the end
# (SHMEMSIM_TRACE_WINDOW=unbounded, one sort by date as the recorder did before streaming). The
# trace files must be byte-identical, and no trace.evt.part may remain. A watermark that let an
# event through too early aborts the run (the recorder asserts dates never go backwards) or
# changes the order of the lines.
# -DRUN=shmemsim-run -DBIN=program dir -DSCENARIO=scenario -DOUT=work dir
set(failures "")
file(REMOVE_RECURSE ${OUT})

function(traced dir window)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SHMEMSIM_TRACE_WINDOW=${window}
                          ${RUN} --scenario ${SCENARIO} --quiet --out ${OUT}/${dir}/${window} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "SHMEMSIM_TRACE_WINDOW=${window} ${ARGN}: exit ${rc}\n${out}\n${err}")
  endif()
endfunction()

function(same_traces dir)
  traced(${dir} bounded ${ARGN})
  traced(${dir} unbounded ${ARGN})
  foreach(f trace.evt trace.json trace.paje)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${dir}/bounded/${f} ${OUT}/${dir}/unbounded/${f}
                    RESULT_VARIABLE differ)
    if(differ)
      set(failures "${failures}  - ${dir}: ${f} streamed differs from the one held until the end\n" PARENT_SCOPE)
    endif()
  endforeach()
  if(EXISTS ${OUT}/${dir}/bounded/trace.evt.part)
    set(failures "${failures}  - ${dir}: trace.evt.part left behind\n" PARENT_SCOPE)
  endif()
  file(STRINGS ${OUT}/${dir}/bounded/trace.evt first LIMIT_COUNT 1)
  if(NOT first STREQUAL "#shmemsim-trace 1")
    set(failures "${failures}  - ${dir}: trace.evt does not start with its header\n" PARENT_SCOPE)
  endif()
endfunction()

# The library's lock (threads on the shared default context) and per-thread computations.
same_traces(threads_shared -np 2 ${BIN}/trace_threads shared)
same_traces(threads_private -np 2 --trace packets ${BIN}/trace_threads private)
# Computation overlapping non-blocking puts; packet hops reported ahead of their dates.
same_traces(overlap -np 2 --trace packets ${BIN}/trace_overlap pipelined)
file(STRINGS ${OUT}/overlap/bounded/trace.evt hops REGEX "^hop " LIMIT_COUNT 1)
if(NOT hops)
  set(failures "${failures}  - overlap: no hop line at level packets\n")
endif()
# Runs of time slices (a spinning thread charged per quantum) reported as one computation.
same_traces(slices -np 2 ${BIN}/spin_wait slice)
same_traces(spin_put -np 4 ${BIN}/spin_wait put)
# Puts above the inline size: each pulled by an RDMA read, a message of its own from the target
# (docs/traces.md), at level packets with its request and response hops.
same_traces(pulled -np 2 --trace packets ${BIN}/pulled_put)
file(STRINGS ${OUT}/pulled/bounded/trace.evt reads REGEX "^msg [0-9]+ [0-9]+ [0-9]+ 1 0 rdma_read ")
list(LENGTH reads nreads)
if(NOT nreads EQUAL 6)
  set(failures "${failures}  - pulled: ${nreads} rdma_read messages from PE 1 to PE 0, expected 6 (1 + 2 per round pair)\n")
endif()

# The check's own error: a bad value is one line naming the variable.
execute_process(COMMAND ${CMAKE_COMMAND} -E env SHMEMSIM_TRACE_WINDOW=huge
                        ${RUN} --scenario ${SCENARIO} --quiet -np 2 --out ${OUT}/bad ${BIN}/trace_overlap blocking
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 120)
if(rc EQUAL 0 OR NOT err MATCHES "SHMEMSIM_TRACE_WINDOW=huge: expected bounded \\(the default\\) or unbounded")
  set(failures "${failures}  - SHMEMSIM_TRACE_WINDOW=huge: exit ${rc}, stderr: ${err}\n")
endif()

if(failures)
  message(FATAL_ERROR "streamed traces:\n${failures}")
endif()
