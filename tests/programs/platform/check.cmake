# The platform a program runs on (README, "The platform"): a scenario that names no platform.preset
# runs on the same embedded qdr-16 platform as no --scenario at all (the same summary.json, byte for
# byte); `"preset": ""` is a generic platform (another simulated time); platform keys given beside no
# preset change qdr-16. Every run says which in one stderr line, and summary.json records it.
# Called with -DRUN (shmemsim-run) -DPROG (a program) -DWORK (scratch).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/job_only.json "{\"description\": \"a job, no platform\", \"job\": {\"compute\": \"counted\"}}\n")
file(WRITE ${WORK}/custom.json "{\"platform\": {\"preset\": \"\"}}\n")
file(WRITE ${WORK}/nodes.json "{\"platform\": {\"nodes\": 4}}\n")

# Runs PROG on 4 PEs with `args` into WORK/<tag>; sets <tag>_err and <tag>_summary.
function(run tag)
  execute_process(COMMAND ${RUN} ${ARGN} -np 4 --quiet --out ${WORK}/${tag} --trace off ${PROG}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${tag}: shmemsim-run ${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
  file(READ ${WORK}/${tag}/summary.json summary)
  set(${tag}_err "${err}" PARENT_SCOPE)
  set(${tag}_summary "${summary}" PARENT_SCOPE)
endfunction()

# One platform line, the whole of stderr here (--quiet), with exactly this text.
function(expect_line tag line)
  if(NOT "${${tag}_err}" STREQUAL "shmemsim-run: platform: ${line}\n")
    message(FATAL_ERROR "${tag}: expected the one stderr line\n  shmemsim-run: platform: ${line}\ngot:\n${${tag}_err}")
  endif()
endfunction()

function(expect_json tag expected)
  string(JSON got GET "${${tag}_summary}" ${ARGN})
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "${tag}: summary.json ${ARGN}: expected ${expected}, got ${got}")
  endif()
endfunction()

run(none)
run(job_only --scenario ${WORK}/job_only.json)
run(custom --scenario ${WORK}/custom.json)
run(nodes --scenario ${WORK}/nodes.json --pes-per-node 1)

expect_line(none "qdr-16 (the embedded default: no --scenario); 16 nodes x 12 cores")
expect_line(job_only "qdr-16 (the embedded default: ${WORK}/job_only.json names no platform.preset); 16 nodes x 12 cores")
expect_line(custom "custom (no preset; every key at its default); 16 nodes x 12 cores")
expect_line(nodes "qdr-16 (the embedded default: ${WORK}/nodes.json names no platform.preset) with 1 of its keys set (nodes); 4 nodes x 12 cores")

if(NOT none_summary STREQUAL job_only_summary)
  message(FATAL_ERROR "a scenario naming no platform must run on the default one: summary.json differs\n"
                      "no --scenario:\n${none_summary}\n--scenario job_only.json:\n${job_only_summary}")
endif()
expect_json(none "qdr-16" platform preset)
expect_json(none "ON" platform by_default)
string(JSON n LENGTH "${none_summary}" platform keys_given)
if(NOT n EQUAL 0)
  message(FATAL_ERROR "none: summary.json platform.keys_given has ${n} keys, expected none")
endif()
expect_json(custom "custom" platform preset)
expect_json(custom "OFF" platform by_default)
expect_json(nodes "nodes" platform keys_given 0)
expect_json(nodes "4" nodes)
# The generic platform is another machine: another simulated time.
string(JSON t_none GET "${none_summary}" sim_time_s)
string(JSON t_custom GET "${custom_summary}" sim_time_s)
if(t_none STREQUAL t_custom)
  message(FATAL_ERROR "the generic platform gave the default platform's simulated time (${t_none} s)")
endif()
# The run's scenario.json names the preset: it reruns on the same platform with any tool.
file(READ ${WORK}/job_only/scenario.json resolved)
string(JSON preset GET "${resolved}" platform preset)
if(NOT preset STREQUAL "qdr-16")
  message(FATAL_ERROR "job_only/scenario.json: platform.preset is '${preset}', expected qdr-16")
endif()
message(STATUS "default platform: ${t_none} s with and without a scenario naming none, generic: ${t_custom} s")
