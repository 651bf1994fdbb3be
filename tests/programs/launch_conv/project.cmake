# End to end, as a third-party suite is built and run: configure the CMake project in project/
# with CC=oshcc (its FindOpenSHMEM module parses `oshcc -show` for -I, -L and -lsma and links
# <libdir>/libshmem.so) and -DCMAKE_EXE_LINKER_FLAGS="-lpmi_simple -lsma", build it, and run it
# with oshrun and other launchers' options.
# Called with -DBIN (the build tree's bin/) -DSRC (this directory) -DWORK (scratch).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -E env CC=${BIN}/oshcc
                        ${CMAKE_COMMAND} -S ${SRC}/project -B ${WORK}/build "-DCMAKE_EXE_LINKER_FLAGS=-lpmi_simple -lsma"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "OpenSHMEM: include [^\n]*/include, library [^\n]*/lib/libshmem.so")
  message(FATAL_ERROR "configuring with CC=oshcc (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build --verbose RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building with CC=oshcc (${rc}):\n${out}\n${err}")
endif()
# (CMake writes <libdir>/libshmem.so as -lshmem: it took the wrapper's -L dirs for implicit ones.)
if(NOT out MATCHES "-lpmi_simple -lsma" OR NOT out MATCHES "(/libshmem.so|-lshmem)( |\n)")
  message(FATAL_ERROR "the link line lacks -lpmi_simple -lsma or libshmem.so:\n${out}")
endif()
# The program depends on the library, not on the linker scripts' names.
execute_process(COMMAND readelf -d ${WORK}/build/hello OUTPUT_VARIABLE dyn)
if(NOT dyn MATCHES "libshmemsim.so" OR dyn MATCHES "libsma|libshmem.so|libpmi")
  message(FATAL_ERROR "hello's dependencies:\n${dyn}")
endif()

# Other launchers' options: 4 PEs, 2 per node (-N), a variable for the PEs (-x), options that
# mean nothing here (one notice line), `--` before the program.
execute_process(COMMAND ${BIN}/oshrun -np 4 -N 2 --oversubscribe --bind-to core --mca btl self -x GREETING=hi
                        --quiet -- ${WORK}/build/hello first
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(expected "")
foreach(pe 0 1 2 3)
  math(EXPR from "(${pe} + 3) % 4")
  string(APPEND expected "hello: PE ${pe} of 4 got ${from}, GREETING=hi, arg first, 2 PEs on its node\n")
endforeach()
set(notice "shmemsim-run: ignored --oversubscribe \\(PEs may always outnumber a simulated node's cores\\)[;] ")
string(APPEND notice "--bind-to core \\(simulated cores are shared fairly by their node's PEs and threads, nothing is bound\\)[;] ")
string(APPEND notice "--mca btl self \\(no Open MPI components here\\)\n")
string(APPEND notice "shmemsim-run: platform: qdr-16 \\(the embedded default: no --scenario\\). 16 nodes x 12 cores\n")
if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "oshrun (${rc}):\n${out}\nexpected:\n${expected}\nstderr:\n${err}")
endif()
if(NOT err MATCHES "^${notice}$")
  message(FATAL_ERROR "oshrun's notices:\n${err}")
endif()
