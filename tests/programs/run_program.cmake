# Runs one program test (cmake -DCASE=<case file> -P run_program.cmake).
#
# The case file, written by shmemsim_program_test (CMakeLists.txt), sets:
#   RUN            shmemsim-run
#   PROGRAM        the program built by shmemsim_program
#   PES            -np
#   WALL_LIMIT     --wall-time-limit (seconds)
#   RUN_OPTIONS    shmemsim-run options before -np (list)
#   ARGS           the program's arguments (list)
#   ENV            KEY=VALUE environment entries (list)
#   EXPECT_STATUS  the exit status expected
#   EXPECT_STDOUT_<i>, EXPECT_STDOUT_N   regexes stdout must match (each somewhere)
#   EXPECT_STDERR_<i>, EXPECT_STDERR_N   regexes stderr must match
#   REJECT_STDOUT_<i>, REJECT_STDOUT_N   regexes stdout must NOT match
#   REJECT_STDERR_<i>, REJECT_STDERR_N   regexes stderr must NOT match
#   STDERR_LINES   if not empty: the exact number of lines on stderr, or a range MIN-MAX, besides
#                  the platform line
#   STDERR_EACH_LINE  if not empty: a regex every line of stderr (but the platform line) must match
#                  whole
#   EXPECT_PLATFORM  if not empty: a regex the platform line must match (its text after
#                  "shmemsim-run: platform: ")
#   COMPARE_RUNS   if true: run twice with --out OUT_DIR/run1 and OUT_DIR/run2; stdout,
#                  summary.json, scenario.json and the trace of the two runs must be byte-identical
#   OUT_DIR        where stdout/stderr (and --out directories) of the runs are kept
# The environment variable SHMEMSIM_TEST_WRAPPER (a ;-list, e.g. "valgrind;-q;--error-exitcode=99"),
# if set, runs shmemsim-run under that command (scripts/memcheck) with wall limits 30 times longer;
# anything the wrapper prints on stderr then fails the test through the stderr checks, and its
# error status through the status check. SHMEMSIM_TEST_REJECT_STDERR (a regex), if set, is one more
# REJECT_STDERR of every test (scripts/tsan: "ThreadSanitizer").
# Every simulated run prints one line saying which platform it runs on ("shmemsim-run: platform:
# ..."), before anything else of the run: the stderr checks (EXPECT/REJECT_STDERR, STDERR_LINES,
# STDERR_EACH_LINE) see stderr without it, so that they keep to what each test is about;
# EXPECT_PLATFORM checks it, and a run never prints two.
# CMake regexes have no multi-line mode: `^`/`$` anchor the whole output; use `(^|\n)` for a
# line start.
cmake_minimum_required(VERSION 3.25)

if(NOT CASE)
  message(FATAL_ERROR "run_program.cmake: -DCASE=<case file> is required")
endif()
include(${CASE})

set(failures "")
macro(fail what)
  string(APPEND failures "  - ${what}\n")
endmacro()

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

set(prefix "")
if(ENV)
  set(prefix ${CMAKE_COMMAND} -E env ${ENV})
endif()
if(DEFINED ENV{SHMEMSIM_TEST_WRAPPER} AND NOT "$ENV{SHMEMSIM_TEST_WRAPPER}" STREQUAL "")
  list(APPEND prefix $ENV{SHMEMSIM_TEST_WRAPPER})
  math(EXPR WALL_LIMIT "${WALL_LIMIT} * 30")
endif()

# One run; `tag` names its output files (and --out directory when comparing runs).
function(run_once tag)
  set(extra "")
  if(COMPARE_RUNS)
    set(extra --out ${OUT_DIR}/${tag})
  endif()
  set(cmd ${prefix} ${RUN} ${RUN_OPTIONS} ${extra} -np ${PES} --wall-time-limit ${WALL_LIMIT}s ${PROGRAM} ${ARGS})
  math(EXPR hard "${WALL_LIMIT} + 30")
  execute_process(COMMAND ${cmd} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status TIMEOUT ${hard})
  file(WRITE ${OUT_DIR}/${tag}.stdout "${out}")
  file(WRITE ${OUT_DIR}/${tag}.stderr "${err}")
  list(JOIN cmd " " cmdline)
  set(${tag}_out "${out}" PARENT_SCOPE)
  set(${tag}_err "${err}" PARENT_SCOPE)
  set(${tag}_status "${status}" PARENT_SCOPE)
  set(${tag}_cmd "${cmdline}" PARENT_SCOPE)
endfunction()

run_once(run1)
set(out "${run1_out}")
set(err "${run1_err}")
set(status "${run1_status}")

# The platform line, apart (see above).
set(platform "")
if(err MATCHES "(^|\n)shmemsim-run: platform: ([^\n]*)\n")
  set(platform "${CMAKE_MATCH_2}")
  string(REPLACE "shmemsim-run: platform: ${platform}\n" "" err "${err}")
  if(err MATCHES "(^|\n)shmemsim-run: platform: ")
    fail("stderr has more than one platform line")
  endif()
endif()
if(NOT "${EXPECT_PLATFORM}" STREQUAL "" AND NOT platform MATCHES "${EXPECT_PLATFORM}")
  fail("the platform line ('${platform}') does not match the expected regex: ${EXPECT_PLATFORM}")
endif()

if(NOT "${status}" STREQUAL "${EXPECT_STATUS}")
  fail("exit status: expected ${EXPECT_STATUS}, got ${status}")
endif()

# A sanitizer's reports (scripts/tsan sets SHMEMSIM_TEST_REJECT_STDERR=ThreadSanitizer) fail every
# test, whatever its expected status: a PE's report may come from a process the job then kills.
if(DEFINED ENV{SHMEMSIM_TEST_REJECT_STDERR} AND NOT "$ENV{SHMEMSIM_TEST_REJECT_STDERR}" STREQUAL "")
  set(i ${REJECT_STDERR_N})
  set(REJECT_STDERR_${i} "$ENV{SHMEMSIM_TEST_REJECT_STDERR}")
  math(EXPR REJECT_STDERR_N "${REJECT_STDERR_N} + 1")
endif()

foreach(kind STDOUT STDERR)
  if(kind STREQUAL "STDOUT")
    set(text "${out}")
  else()
    set(text "${err}")
  endif()
  if(EXPECT_${kind}_N GREATER 0)
    math(EXPR last "${EXPECT_${kind}_N} - 1")
    foreach(i RANGE ${last})
      if(NOT text MATCHES "${EXPECT_${kind}_${i}}")
        fail("${kind} does not match the expected regex: ${EXPECT_${kind}_${i}}")
      endif()
    endforeach()
  endif()
  if(REJECT_${kind}_N GREATER 0)
    math(EXPR last "${REJECT_${kind}_N} - 1")
    foreach(i RANGE ${last})
      if(text MATCHES "${REJECT_${kind}_${i}}")
        fail("${kind} matches the rejected regex: ${REJECT_${kind}_${i}} (matched: '${CMAKE_MATCH_0}')")
      endif()
    endforeach()
  endif()
endforeach()

if(NOT "${STDERR_LINES}" STREQUAL "")
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines nlines)
  if(NOT err STREQUAL "" AND NOT err MATCHES "\n$")
    math(EXPR nlines "${nlines} + 1")
  endif()
  set(lo ${STDERR_LINES})
  set(hi ${STDERR_LINES})
  if(STDERR_LINES MATCHES "^([0-9]+)-([0-9]+)$")
    set(lo ${CMAKE_MATCH_1})
    set(hi ${CMAKE_MATCH_2})
  endif()
  if(nlines LESS lo OR nlines GREATER hi)
    fail("stderr: expected ${STDERR_LINES} line(s), got ${nlines}")
  endif()
endif()
if(NOT "${STDERR_EACH_LINE}" STREQUAL "")
  string(REPLACE ";" "\\;" err_escaped "${err}") # keep a line's semicolons inside its list item
  string(REGEX MATCHALL "[^\n]+" err_lines "${err_escaped}")
  foreach(line IN LISTS err_lines)
    if(NOT line MATCHES "^(${STDERR_EACH_LINE})$")
      fail("stderr: line does not match ${STDERR_EACH_LINE}: '${line}'")
    endif()
  endforeach()
endif()

if(COMPARE_RUNS)
  run_once(run2)
  if(NOT "${run2_status}" STREQUAL "${status}")
    fail("second run: exit status ${run2_status}, first run ${status}")
  endif()
  if(NOT run2_out STREQUAL out)
    fail("stdout differs between two identical runs (${OUT_DIR}/run1.stdout, ${OUT_DIR}/run2.stdout)")
  endif()
  foreach(f summary.json scenario.json trace.evt trace.json trace.paje)
    if(NOT EXISTS ${OUT_DIR}/run1/${f} OR NOT EXISTS ${OUT_DIR}/run2/${f})
      fail("--out did not write ${f} (${OUT_DIR}/run1, ${OUT_DIR}/run2)")
    else()
      file(SHA256 ${OUT_DIR}/run1/${f} a)
      file(SHA256 ${OUT_DIR}/run2/${f} b)
      if(NOT a STREQUAL b)
        fail("${f} differs between two identical runs (${OUT_DIR}/run1/${f} vs ${OUT_DIR}/run2/${f})")
      endif()
    endif()
  endforeach()
endif()

if(failures)
  string(LENGTH "${out}" outlen)
  if(outlen GREATER 6000)
    string(SUBSTRING "${out}" 0 6000 out)
    string(APPEND out "\n[... stdout truncated; full text in ${OUT_DIR}/run1.stdout]\n")
  endif()
  # NOTICE keeps the text as it is (FATAL_ERROR would re-wrap it).
  message(NOTICE "command: ${run1_cmd}\n${failures}---- stdout ----\n${out}---- stderr ----\n${err}----------------")
  message(FATAL_ERROR "program test failed (details above)")
endif()
message(STATUS "ok: status ${status}")
