# shmemsim-cc refuses at link time a program that references a symbol nothing defines, as a
# compiler driver does: the linker's message names the symbol, the status is non-zero and no
# program is left (not even a stale one). What the runtime provides (libm, pthreads, libc) and
# -L/-l libraries link without extra flags; a refused object compiled with -c fails the same way.
# Called with -DCC (shmemsim-cc) -DRUN (shmemsim-run) -DSRC (this directory) -DWORK (scratch).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(expect_refused what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "undefined reference to `shmemsim_conv_missing'")
    message(FATAL_ERROR "${what}: expected a link error naming shmemsim_conv_missing, got status ${rc}:\n${out}\n${err}")
  endif()
  if(EXISTS ${WORK}/undefined)
    message(FATAL_ERROR "${what}: the refused program was left behind")
  endif()
  message(STATUS "${what}: status ${rc}\n${err}")
endfunction()

# Source to program in one command.
expect_refused("one command" ${CC} -O2 ${SRC}/undefined.c -o ${WORK}/undefined)
# A stale program from an earlier build is not left in place either.
file(WRITE ${WORK}/undefined "stale")
expect_refused("over a stale program" ${CC} -O2 ${SRC}/undefined.c -o ${WORK}/undefined)
# -c compiles (nothing is checked yet); linking the object is refused.
execute_process(COMMAND ${CC} -O2 -c ${SRC}/undefined.c -o ${WORK}/undefined.o RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "-c failed (${rc}):\n${err}")
endif()
expect_refused("object" ${CC} ${WORK}/undefined.o -o ${WORK}/undefined)

# libm, pthreads and a -L/-l shared library: linked and run.
execute_process(COMMAND cc -O2 -fPIC -shared ${SRC}/helper.c -o ${WORK}/libconvhelper.so RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building libconvhelper.so failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${CC} -O2 ${SRC}/runtime_libs.c -o ${WORK}/runtime_libs -L${WORK} -lconvhelper -Wl,-rpath,${WORK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "runtime_libs refused (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${RUN} -np 2 ${WORK}/runtime_libs RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "runtime_libs: 10.0 on 2 PEs")
  message(FATAL_ERROR "runtime_libs run (${rc}):\n${out}\n${err}")
endif()

# -Wl,-z,undefs turns the check off; such a program is then refused when shmemsim-run loads it,
# naming the symbol.
execute_process(COMMAND ${CC} -O2 ${SRC}/undefined.c -o ${WORK}/undefined -Wl,-z,undefs RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "-Wl,-z,undefs: refused (${rc}):\n${err}")
endif()
execute_process(COMMAND ${RUN} -np 2 ${WORK}/undefined RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot load: [^\n]*undefined symbol: shmemsim_conv_missing \\(nothing loaded defines it")
  message(FATAL_ERROR "loading a program with an undefined symbol (${rc}):\n${out}\n${err}")
endif()
