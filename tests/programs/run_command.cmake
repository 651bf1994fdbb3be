# Runs one command and checks its exit status and its output, for program tests that cannot go
# through shmemsim_program_test (a `ulimit` around the launcher, options placed around the program):
#   cmake -DEXPECT_STATUS=s -DEXPECT_STDOUT=<regex> [-DREJECT_STDOUT=<regex>] -P run_command.cmake -- COMMAND ARGS...
# The test fails, showing the command, its status and both streams, unless the command exits with
# EXPECT_STATUS and its stdout matches EXPECT_STDOUT (CMake regex; `^`/`$` anchor the whole text)
# and does not match REJECT_STDOUT.
cmake_minimum_required(VERSION 3.25)

set(cmd "")
set(after FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after TRUE)
  endif()
endforeach()
if(NOT cmd OR NOT DEFINED EXPECT_STATUS OR NOT DEFINED EXPECT_STDOUT)
  message(FATAL_ERROR "run_command.cmake: -DEXPECT_STATUS, -DEXPECT_STDOUT and a command after -- are required")
endif()

execute_process(COMMAND ${cmd} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
set(failures "")
if(NOT "${status}" STREQUAL "${EXPECT_STATUS}")
  string(APPEND failures "  - exit status: expected ${EXPECT_STATUS}, got ${status}\n")
endif()
if(NOT out MATCHES "${EXPECT_STDOUT}")
  string(APPEND failures "  - stdout does not match the expected regex: ${EXPECT_STDOUT}\n")
endif()
if(DEFINED REJECT_STDOUT AND out MATCHES "${REJECT_STDOUT}")
  string(APPEND failures "  - stdout matches the rejected regex: ${REJECT_STDOUT}\n")
endif()
if(failures)
  list(JOIN cmd " " cmdline)
  message(NOTICE "command: ${cmdline}\n${failures}---- stdout ----\n${out}---- stderr ----\n${err}----------------")
  message(FATAL_ERROR "test failed (details above)")
endif()
message(STATUS "ok: status ${status}")
