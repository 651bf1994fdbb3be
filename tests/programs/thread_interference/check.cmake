# 8 threads of small puts: on the shared default context (contended library lock) they take
# clearly longer than on private contexts; with no lock cost the gap closes. The NIC is made fast
# and given spare injection queues, and the host cost of a Portals call is made small, so that the
# library lock is the scarce resource.
function(run_variant variant lock out_var)
  execute_process(COMMAND ${RUN} -np 2 --set job.threads.library_lock=${lock} --set platform.nic.injection_queues=16
                          --set platform.nic.send_overhead=20ns --set platform.nic.recv_overhead=20ns
                          --set platform.nic.initiate_overhead=20ns ${PROG} ${variant}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "contexts ([0-9]+) us ok")
    message(FATAL_ERROR "${variant} (lock ${lock}) failed (${rc}):\n${out}\n${err}")
  endif()
  set(${out_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
run_variant(shared 100ns shared)
run_variant(private 100ns private)
run_variant(shared 0ns shared_free)
math(EXPR ratio "100 * ${shared} / ${private}")
message(STATUS "shared ${shared} us, private ${private} us (${ratio}%), shared without lock cost ${shared_free} us")
if(ratio LESS 200)
  message(FATAL_ERROR "the shared context should be at least 2x slower with a contended lock: ${shared} vs ${private} us")
endif()
if(NOT shared_free LESS shared)
  message(FATAL_ERROR "removing the lock cost should make the shared variant faster: ${shared_free} vs ${shared} us")
endif()
