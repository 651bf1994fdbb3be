# Other wrappers' conventions of shmemsim-cc / oshcc: -show (MPICH, SOS), -showme, --showme:compile,
# :link, :command, :incdirs, :libdirs, :libs (Open MPI); -lsma, -lshmem, -loshmem, -lpmi_simple and
# -lpmi on the link line; the link-time undefined-symbol check with them.
# Called with -DBIN (the build tree's bin/) -DSRC (this directory) -DWORK (scratch).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
get_filename_component(prefix ${BIN} DIRECTORY)
set(CC ${BIN}/oshcc)

function(show what expect)
  execute_process(COMMAND ${CC} ${what} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${expect}" OR NOT err STREQUAL "")
    message(FATAL_ERROR "oshcc ${what} (${rc}): expected /${expect}/, got:\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# -show / -showme / --showme: the whole command, not run; with -I, -L and a -lsma that resolves.
foreach(opt -show -showme --showme)
  show(${opt} "^gcc [^\n]*-I${prefix}/include [^\n]*-L${prefix}/lib [^\n]*-lsma [^\n]*\n$")
endforeach()
if(out MATCHES " -o ")
  message(FATAL_ERROR "oshcc -show names an output:\n${out}")
endif()
foreach(lib sma shmem oshmem pmi_simple pmi)
  if(NOT EXISTS ${prefix}/lib/lib${lib}.so)
    message(FATAL_ERROR "${prefix}/lib/lib${lib}.so is missing")
  endif()
endforeach()
# With arguments: the command for them, and nothing is built.
show("-show;-c;x.c;-o;${WORK}/x.o" "^gcc -fPIC -I${prefix}/include [^\n]*-c x.c -o ${WORK}/x.o\n$")
if(EXISTS ${WORK}/x.o)
  message(FATAL_ERROR "oshcc -show -c built something")
endif()
# Open MPI's parts.
show(--showme:command "^gcc\n$")
show(--showme:compile "^-fPIC -I${prefix}/include( -fplugin=${prefix}/lib/shmemsim_count_plugin.so)?\n$")
show(--showme:link "^-fPIC [^\n]*-shared -Wl,-z,defs [^\n]*-L${prefix}/lib [^\n]*-lsma [^\n]*-Wl,-rpath,${prefix}/lib\n$")
show(--showme:incdirs "^${prefix}/include\n$")
show(--showme:libdirs "^${prefix}/lib/shmemsim-omp ${prefix}/lib\n$")
show(--showme:libs "^shmemsim_interpose sma shmemsim_omp m\n$")
execute_process(COMMAND ${CC} --showme:frob RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "^oshcc: unknown option '--showme:frob' [^\n]*\n$")
  message(FATAL_ERROR "oshcc --showme:frob (${rc}):\n${out}\n${err}")
endif()

# The compile and link flags Open MPI's --showme:compile / --showme:link print build a program.
execute_process(COMMAND ${CC} --showme:compile OUTPUT_VARIABLE cflags OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${CC} --showme:link OUTPUT_VARIABLE ldflags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(cflags UNIX_COMMAND "${cflags}")
separate_arguments(ldflags UNIX_COMMAND "${ldflags}")
execute_process(COMMAND gcc ${cflags} -c ${SRC}/project/hello.c -o ${WORK}/hello.o RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gcc --showme:compile flags (${rc}):\n${err}")
endif()
execute_process(COMMAND gcc ${WORK}/hello.o ${ldflags} -o ${WORK}/hello_showme RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gcc --showme:link flags (${rc}):\n${err}")
endif()

# Every implementation's library names link; the program runs and needs only libshmemsim.
execute_process(COMMAND ${CC} -O2 ${SRC}/project/hello.c -o ${WORK}/hello -lpmi_simple -lsma -lshmem -loshmem -lpmi
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "linking with -lpmi_simple -lsma -lshmem -loshmem -lpmi (${rc}):\n${out}\n${err}")
endif()
foreach(p hello hello_showme)
  execute_process(COMMAND readelf -d ${WORK}/${p} OUTPUT_VARIABLE dyn)
  if(NOT dyn MATCHES "\\[libshmemsim.so\\]" OR dyn MATCHES "libsma|libshmem.so|liboshmem|libpmi")
    message(FATAL_ERROR "${p}'s dependencies:\n${dyn}")
  endif()
  execute_process(COMMAND ${BIN}/oshrun -np 2 --quiet ${WORK}/${p} x RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^hello: PE 0 of 2 got 1, [^\n]*\nhello: PE 1 of 2 got 0, ")
    message(FATAL_ERROR "running ${p} (${rc}):\n${out}\n${err}")
  endif()
endforeach()

# The undefined-symbol check still refuses a program, with these libraries on the line.
execute_process(COMMAND ${CC} -O2 ${SRC}/undefined.c -o ${WORK}/undefined -lpmi_simple -lsma -lshmem -loshmem -lpmi
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "undefined reference to `launch_conv_missing'" OR EXISTS ${WORK}/undefined)
  message(FATAL_ERROR "an undefined symbol with -lsma -lpmi_simple (${rc}):\n${out}\n${err}")
endif()
