# The legacy headers in an installation: `cmake --install` puts mpp/shmem.h and mpp/shmemx.h
# beside shmem.h, and the installed shmemsim-cc finds them without extra flags.
# Called with -DBUILD (the build tree) -DSRC (this directory) -DWORK (scratch).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${err}")
endif()
foreach(h mpp/shmem.h mpp/shmemx.h)
  if(NOT EXISTS ${WORK}/prefix/include/${h})
    message(FATAL_ERROR "${h} is not installed in ${WORK}/prefix/include")
  endif()
endforeach()
execute_process(COMMAND ${WORK}/prefix/bin/shmemsim-cc -O2 ${SRC}/conv_mpp.c -o ${WORK}/conv_mpp
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed shmemsim-cc refused conv_mpp.c (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${WORK}/prefix/bin/shmemsim-run -np 2 ${WORK}/conv_mpp RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "conv_mpp: OK on 2 PEs")
  message(FATAL_ERROR "the installed shmemsim-run (${rc}):\n${out}\n${err}")
endif()
