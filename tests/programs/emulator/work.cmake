# The emulator's work on two shapes that were slow (issue 25), bounded from summary.json's
# emulator.work (docs/emulator.md), never from times:
#  - a large get loop (Sandia's bigget): 4 PEs x 8 gets of 4 MiB. The NIC copies at most 10 % of
#    the payload in user space (a reply is read straight into its destination and sent from the
#    symmetric memory in place; it copied 2.7x the payload before), reads bring 16 KiB or more on
#    average, 2 messages per get (the request and its reply) beside the start-up's.
#  - many fcollect rounds (Sandia's spam): 4 PEs x 200 fcollects of 2 KiB (ring: 3 steps of a put
#    and a signal per PE). At most 48 messages per round (24 requests, at most one ACK each), the
#    payload of 12 puts of 2 KiB per round, copies at most twice the payload (into a batch when a
#    put joins one, out of the receive buffer), one read per message at most, and at most two
#    sleeps (a thread blocking) per message.
# Over TCP between the PEs (emulator.transport=tcp): reads are receive system calls; the
# shared-memory path has none.
# Usage: cmake -DRUN=shmemsim-run -DPROGRAM=emu_shapes -DWORK=dir -P work.cmake
function(run_shape name)
  set(dir ${WORK}/${name})
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${RUN} --emulate --set emulator.transport=tcp --set emulator.stall_timeout=20s --wall-time-limit 120s -np 4 --out ${dir}
                          --trace off ${PROGRAM} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "emu_shapes: OK on 4 PEs" OR out MATCHES "FAIL")
    message(FATAL_ERROR "emu_shapes ${ARGN} failed (status ${rc}):\n${out}\n${err}")
  endif()
  file(READ ${dir}/summary.json json)
  set(line "")
  foreach(k messages payload_bytes copied_bytes reads sleeps)
    string(JSON v GET "${json}" emulator work ${k})
    set(${name}_${k} ${v} PARENT_SCOPE)
    string(APPEND line " ${k}=${v}")
  endforeach()
  string(JSON wall GET "${json}" wall_time_s)
  message(STATUS "${name}:${line} (${wall} s of wall time)")
endfunction()

# require(MESSAGE VAR OP VAR): fails with MESSAGE unless the comparison holds.
macro(require what a op b)
  if(NOT ${a} ${op} ${b})
    message(FATAL_ERROR "${what}")
  endif()
endmacro()

run_shape(bigget bigget 8 4)
math(EXPR moved "4 * 8 * 4 * 1024 * 1024")
math(EXPR copy_cap "${moved} / 10")
math(EXPR per_read "${bigget_payload_bytes} / ${bigget_reads}")
require("bigget: the replies' payload ${bigget_payload_bytes} bytes is not the ${moved} bytes got"
        bigget_payload_bytes GREATER_EQUAL moved)
require("bigget: ${bigget_copied_bytes} bytes copied in user space, more than 10 % of ${moved}"
        bigget_copied_bytes LESS_EQUAL copy_cap)
require("bigget: ${bigget_reads} reads for ${bigget_payload_bytes} bytes (${per_read} per read, below 16 KiB)"
        per_read GREATER_EQUAL 16384)
math(EXPR msg_cap "4 * 8 * 2 + 400")
require("bigget: ${bigget_messages} messages for 32 gets" bigget_messages LESS_EQUAL msg_cap)

run_shape(fcollect fcollect 200 2048)
math(EXPR msg_cap "200 * 48 + 400")
math(EXPR payload "200 * 12 * 2048")
math(EXPR copy_cap "2 * ${fcollect_payload_bytes}")
math(EXPR sleep_cap "2 * ${fcollect_messages}")
require("fcollect: ${fcollect_messages} messages for 200 rounds (at most ${msg_cap})" fcollect_messages LESS_EQUAL msg_cap)
require("fcollect: payload ${fcollect_payload_bytes} bytes, not the ${payload} of 200 rounds"
        fcollect_payload_bytes GREATER_EQUAL payload)
require("fcollect: ${fcollect_copied_bytes} bytes copied, more than twice the payload" fcollect_copied_bytes LESS_EQUAL copy_cap)
require("fcollect: ${fcollect_reads} reads for ${fcollect_messages} messages" fcollect_reads LESS_EQUAL fcollect_messages)
require("fcollect: ${fcollect_sleeps} sleeps for ${fcollect_messages} messages" fcollect_sleeps LESS_EQUAL sleep_cap)
