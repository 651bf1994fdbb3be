# 8 threads of small puts. The NIC is made fast and given spare injection queues, and the host cost
# of a Portals call is made small, so that what the threads share is the scarce resource:
# - a library lock (job.threads.library_lock): on the shared default context the threads take
#   clearly longer than on private contexts; with no lock cost the gap closes;
# - shared cache lines (platform.coherence.*, no lock): the shared context's counter and MD lines
#   move between the threads' cores at every put, private contexts' do not; with free transfers
#   the gap closes.
function(run_variant variant out_var)
  execute_process(COMMAND ${RUN} -np 2 --set platform.nic.injection_queues=16
                          --set platform.nic.send_overhead=20ns --set platform.nic.recv_overhead=20ns
                          --set platform.nic.ack_overhead=20ns --set platform.nic.reply_overhead=20ns
                          --set platform.nic.initiate_overhead=20ns ${ARGN} ${PROG} ${variant}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "contexts ([0-9]+) us ok")
    message(FATAL_ERROR "${variant} (${ARGN}) failed (${rc}):\n${out}\n${err}")
  endif()
  set(${out_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

set(free_lines --set platform.coherence.same_socket=0ns --set platform.coherence.cross_socket=0ns)
run_variant(shared shared --set job.threads.library_lock=100ns ${free_lines})
run_variant(private private --set job.threads.library_lock=100ns ${free_lines})
run_variant(shared shared_free --set job.threads.library_lock=0ns ${free_lines})
math(EXPR ratio "100 * ${shared} / ${private}")
message(STATUS "lock: shared ${shared} us, private ${private} us (${ratio}%), shared without lock cost ${shared_free} us")
if(ratio LESS 200)
  message(FATAL_ERROR "the shared context should be at least 2x slower with a contended lock: ${shared} vs ${private} us")
endif()
if(NOT shared_free LESS shared)
  message(FATAL_ERROR "removing the lock cost should make the shared variant faster: ${shared_free} vs ${shared} us")
endif()

set(slow_lines --set platform.coherence.same_socket=200ns --set platform.coherence.cross_socket=400ns)
run_variant(shared lines_shared ${slow_lines})
run_variant(private lines_private ${slow_lines})
math(EXPR ratio "100 * ${lines_shared} / ${lines_private}")
message(STATUS "lines: shared ${lines_shared} us, private ${lines_private} us (${ratio}%), shared with free lines ${shared_free} us")
if(ratio LESS 150)
  message(FATAL_ERROR "the shared context's lines should make it at least 1.5x slower than private contexts: "
                      "${lines_shared} vs ${lines_private} us")
endif()
if(NOT shared_free LESS lines_shared)
  message(FATAL_ERROR "free cache-line transfers should make the shared variant faster: ${shared_free} vs ${lines_shared} us")
endif()
