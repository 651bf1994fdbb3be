# Trace attribution and report figures of real many-thread runs (issue 25): trace_attrib with
# THREADS threads per PE on 4 PEs, in a context mapping (lean, split) or with a private context per
# thread, traced at level ops; `shmemsim report` makes report.json; shmemsim_trace_audit then checks
# that every operation has exactly its own message, from its PE to its target, of its kind, that
# the report's per-thread figures (operations, waits, operations waited for, interference, overlap,
# lock time) equal a recomputation from the trace by their definitions, and that out-of-order
# deliveries recounted from the order of issue and of delivery per pair equal the trace's flags,
# summary.json and report.json.
# -DRUN=shmemsim-run -DSHMEMSIM=shmemsim -DAUDIT=shmemsim_trace_audit -DPROG=trace_attrib
# -DSCENARIO=unordered.json -DOUT=work dir -DTHREADS=n -DMODE=lean|split|private [-DEMULATE=ON]
# EMULATE: the same with shmemsim-run --emulate, requests reordered by the injector (the emulated
# trace has the same vocabulary; its dates are real time).
file(REMOVE_RECURSE ${OUT})
set(backend "")
if(EMULATE)
  set(backend --emulate --set emulator.stall_timeout=20s --set emulator.reorder.probability=0.3 --set emulator.jitter=20us)
endif()
set(mapping ${MODE})
set(contexts shared)
if(MODE STREQUAL "private")
  set(mapping lean)
  set(contexts private)
endif()
execute_process(COMMAND ${RUN} ${backend} --scenario ${SCENARIO} -np 4 --quiet --out ${OUT} --trace ops
                        --set job.contexts.mapping=${mapping} ${PROG} ${THREADS} ${contexts}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "trace_attrib: OK on 4 PEs x ${THREADS} threads, ${contexts} contexts\n")
  message(FATAL_ERROR "trace_attrib ${THREADS} ${contexts} (${mapping}): exit ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND ${SHMEMSIM} report ${OUT} --quiet RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "shmemsim report ${OUT}: exit ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND ${AUDIT} ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the trace or its report is wrong (${THREADS} threads, ${MODE})")
endif()
