# shmemsim-cc -fopenmp: a supported program links shmemsim's runtime and not libgomp; constructs the
# runtime does not implement are refused when linking, naming the construct and the GOMP entry point.
execute_process(COMMAND ${CC} -fopenmp -O2 -I${COMMON} ${SRC}/../omp_team/omp_team.c -o ${WORK}/ok
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "supported program refused (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND readelf -d ${WORK}/ok OUTPUT_VARIABLE dyn)
if(NOT dyn MATCHES "libshmemsim_omp\\.so" OR dyn MATCHES "libgomp")
  message(FATAL_ERROR "expected libshmemsim_omp.so and no libgomp among the needed libraries:\n${dyn}")
endif()
foreach(c "target@target \\(device offload\\) \\(GOMP_target"
          "taskloop@taskloop \\(GOMP_taskloop"
          "cancel@cancel / cancellation point \\(GOMP_cancel")
  string(REPLACE "@" ";" parts "${c}")
  list(GET parts 0 what)
  list(GET parts 1 regex)
  execute_process(COMMAND ${CC} -fopenmp -O2 ${SRC}/${what}.c -o ${WORK}/${what}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "shmemsim-cc: OpenMP construct ${regex}[^\n]*\\) is not supported by shmemsim's OpenMP runtime")
    message(FATAL_ERROR "${what}: expected a refusal naming it, got status ${rc}:\n${out}\n${err}")
  endif()
  if(EXISTS ${WORK}/${what})
    message(FATAL_ERROR "${what}: the refused program was left behind")
  endif()
  message(STATUS "${what}: ${err}")
endforeach()
# An omp_ routine the runtime does not define is named as a routine.
execute_process(COMMAND ${CC} -fopenmp -O2 ${SRC}/routine.c -o ${WORK}/routine
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "shmemsim-cc: OpenMP routine omp_target_alloc is not supported by shmemsim's OpenMP runtime")
  message(FATAL_ERROR "routine: expected a refusal naming omp_target_alloc, got status ${rc}:\n${out}\n${err}")
endif()
