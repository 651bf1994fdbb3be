# Conventions of other implementations' wrappers and launchers that third-party suites' build and
# run scripts rely on (included by CMakeLists.txt): oshcc -show/--showme and the -lsma/-lpmi_simple
# library names, a CMake project finding us through `oshcc -show`, oshrun's Open MPI / MPICH / SOS
# options, repeated shmem_init/shmem_finalize, SHMEM_SYMMETRIC_SIZE as a byte count or "2G".
# Uses shmemsim_program / shmemsim_program_test from CMakeLists.txt.
shmemsim_program(launch_conv SOURCES launch_conv/launch_conv.c)

# ------------------------------------------------------------------ the compiler wrapper; a CMake project
add_test(NAME prog_launch_conv_wrapper
  COMMAND ${CMAKE_COMMAND} -DBIN=${PROJECT_BINARY_DIR}/bin -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/launch_conv
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/launch_conv_wrapper -P ${CMAKE_CURRENT_SOURCE_DIR}/launch_conv/wrapper.cmake)
add_test(NAME prog_launch_conv_project
  COMMAND ${CMAKE_COMMAND} -DBIN=${PROJECT_BINARY_DIR}/bin -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/launch_conv
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/launch_conv_project -P ${CMAKE_CURRENT_SOURCE_DIR}/launch_conv/project.cmake)
set_tests_properties(prog_launch_conv_wrapper prog_launch_conv_project PROPERTIES LABELS programs TIMEOUT 300)

# ------------------------------------------------------------------ launcher options
# PEs per node: -N, --npernode, -ppn, --map-by ppr:K:node (4 PEs, 2 per node).
set(_two_per_node "(^|\n)launch_conv: PE 0 shares a node with 2 PEs from PE 0\n"
                  "(^|\n)launch_conv: PE 1 shares a node with 2 PEs from PE 0\n"
                  "(^|\n)launch_conv: PE 2 shares a node with 2 PEs from PE 2\n"
                  "(^|\n)launch_conv: PE 3 shares a node with 2 PEs from PE 2\n")
foreach(_opt "-N" "--npernode" "-ppn" "--map-by")
  set(_value 2)
  if(_opt STREQUAL "--map-by")
    set(_value ppr:2:node)
  endif()
  string(REPLACE "-" "" _name "${_opt}")
  shmemsim_program_test(launch_conv_ppn_${_name} PROGRAM launch_conv PES 4 ARGS nodes
    RUN_OPTIONS --quiet ${_opt} ${_value} STDERR_LINES 0
    EXPECT_STDOUT ${_two_per_node} "(^|\n)launch_conv: OK on 4 PEs\n" REJECT_STDOUT "FAIL")
endforeach()
# --map-by node: round-robin over the nodes (2 nodes: PEs 0, 2 on one, 1, 3 on the other).
shmemsim_program_test(launch_conv_map_by_node PROGRAM launch_conv PES 4 ARGS nodes
  RUN_OPTIONS --quiet --set platform.nodes=2 --map-by node STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)launch_conv: PE 1 shares a node with 2 PEs from PE 1\n"
                "(^|\n)launch_conv: PE 2 shares a node with 2 PEs from PE 0\n" "(^|\n)launch_conv: OK on 4 PEs\n"
  REJECT_STDOUT "FAIL")
shmemsim_program_test(launch_conv_map_by_bad PROGRAM launch_conv PES 2 ARGS nodes RUN_OPTIONS --map-by ppr:0:node
  EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: --map-by ppr:0:node: expected ppr:K:node with an integer K >= 1 \\(see 'shmemsim-run --help'\\)\n$")
# Variables for the PEs: -x VAR=VALUE, -x VAR (the launcher's value), -genv/-env VAR VALUE; every PE
# sees them through getenv and main's envp; unset stays unset.
shmemsim_program_test(launch_conv_env PROGRAM launch_conv PES 3 ARGS env LC_A LC_B LC_C LC_D LC_E LC_UNSET
  ENV LC_B=from-launcher LC_D=overridden
  RUN_OPTIONS --quiet -x LC_A=one -x LC_B -genv LC_C "two words" -env LC_D three -x LC_E= STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)launch_conv: PE 0 LC_A=one\n" "(^|\n)launch_conv: PE 2 LC_A=one\n"
                "(^|\n)launch_conv: PE 1 LC_B=from-launcher\n" "(^|\n)launch_conv: PE 2 LC_C=two words\n"
                "(^|\n)launch_conv: PE 0 LC_D=three\n" "(^|\n)launch_conv: PE 1 LC_E=\n"
                "(^|\n)launch_conv: PE 2 LC_UNSET=\\(unset\\)\n" "(^|\n)launch_conv: OK on 3 PEs\n"
  REJECT_STDOUT "FAIL")
# job.env: the scenario's variables for the PEs; -x wins over an entry of the same name.
shmemsim_program_test(launch_conv_job_env PROGRAM launch_conv PES 2 ARGS env LC_A LC_B
  RUN_OPTIONS --quiet --set "job.env=[\"LC_A=from-scenario\",\"LC_B=from-scenario\"]" -x LC_B=from-x STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)launch_conv: PE 1 LC_A=from-scenario\n" "(^|\n)launch_conv: PE 0 LC_B=from-x\n"
                "(^|\n)launch_conv: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL")
shmemsim_program_test(launch_conv_job_env_bad PROGRAM launch_conv PES 2 ARGS env X
  RUN_OPTIONS --quiet --set "job.env=[\"NOVALUE\"]" EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "job.env\\[0\\]: 'NOVALUE': expected \"NAME=value\"")
# A scenario's built-in traffic is not run by shmemsim-run: one notice line says so.
shmemsim_program_test(launch_conv_scenario_traffic PROGRAM launch_conv PES 2 ARGS nodes
  RUN_OPTIONS --scenario ${PROJECT_SOURCE_DIR}/scenarios/net/alltoall.json --quiet STDERR_LINES 1
  EXPECT_STDOUT "(^|\n)launch_conv: OK on 2 PEs\n"
  EXPECT_STDERR "alltoall.json: its traffic \\(2 patterns\\) is not run: shmemsim-run runs the program"
  REJECT_STDOUT "FAIL")
# -x reaches the library and the launcher: SHMEM_SYMMETRIC_SIZE=1m leaves room for one 600000-byte
# block per round, and 16 rounds of init/finalize each allocate one (see reinit below).
shmemsim_program_test(launch_conv_env_heap PROGRAM launch_conv PES 2 ARGS reinit 16 600000
  RUN_OPTIONS --quiet -x SHMEM_SYMMETRIC_SIZE=1m STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)launch_conv: OK on 2 PEs\n" REJECT_STDOUT "FAIL")
shmemsim_program_test(launch_conv_env_bad PROGRAM launch_conv PES 2 ARGS env X
  RUN_OPTIONS -x =value EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: -x =value: expected an environment variable name \\(letters, digits, _\\) \\(see 'shmemsim-run --help'\\)\n$")
# Options that mean nothing in a simulation: accepted, ONE notice line naming them and why.
shmemsim_program_test(launch_conv_ignored PROGRAM launch_conv PES 2 ARGS nodes
  RUN_OPTIONS --quiet --oversubscribe --bind-to core --map-by socket --report-bindings --hostfile hosts.txt
              -f machines --mca btl self,vader -v STDERR_LINES 1
  EXPECT_STDOUT "(^|\n)launch_conv: OK on 2 PEs\n"
  EXPECT_STDERR "^shmemsim-run: ignored --oversubscribe \\(PEs may always outnumber a simulated node's cores\\). --bind-to core, --report-bindings \\(simulated cores are shared fairly by their node's PEs and threads, nothing is bound\\). --map-by socket \\(only ppr:K:node, node, slot and core mean something here\\). --hostfile hosts.txt, -f machines \\(the nodes are the simulated platform's \\(--scenario, --set platform.nodes=N\\)\\). --mca btl self,vader \\(no Open MPI components here\\). -v \\(no verbose mode. --out DIR records the run\\)\n$"
  REJECT_STDOUT "FAIL")
# Unknown options are still refused: one line, status 2.
shmemsim_program_test(launch_conv_unknown PROGRAM launch_conv PES 2 ARGS nodes RUN_OPTIONS --bind-to core --frobnicate
  EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: unknown option '--frobnicate' \\(see 'shmemsim-run --help'\\)\n$" REJECT_STDOUT "launch_conv")
# `--` ends the launcher's options; what follows the program is the program's (even -np, -x).
add_test(NAME prog_launch_conv_double_dash
  COMMAND ${CMAKE_COMMAND} -DEXPECT_STATUS=0 "-DEXPECT_STDOUT=launch_conv: PE 1 -x=\\(unset\\)\nlaunch_conv: OK on 2 PEs\n"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_command.cmake --
          ${PROJECT_BINARY_DIR}/bin/oshrun --quiet --scenario ${SHMEMSIM_PROG_SCENARIO} -np 2 -- ${CMAKE_CURRENT_BINARY_DIR}/bin/launch_conv env -np -x)
set_tests_properties(prog_launch_conv_double_dash PROPERTIES LABELS programs TIMEOUT 180)

# ------------------------------------------------------------------ repeated shmem_init / shmem_finalize
# A test driver's init/finalize around each case: 16 rounds, each leaving a heap block, a context and
# a team (more than the 13 team slots) for shmem_finalize to release; with several PEs per node too.
foreach(n 1 3)
  shmemsim_program_test(launch_conv_reinit PROGRAM launch_conv PES ${n} ARGS reinit 16 4096
    RUN_OPTIONS --quiet STDERR_LINES 0 EXPECT_STDOUT "(^|\n)launch_conv: OK on ${n} PEs\n" REJECT_STDOUT "FAIL")
endforeach()
shmemsim_program_test(launch_conv_reinit_ppn PROGRAM launch_conv PES 4 ARGS reinit 3 4096
  RUN_OPTIONS --quiet -N 2 STDERR_LINES 0 EXPECT_STDOUT "(^|\n)launch_conv: OK on 4 PEs\n" REJECT_STDOUT "FAIL")
# SHMEM_DEBUG shows the re-initializations; SHMEM_VERSION prints once, at start-up.
shmemsim_program_test(launch_conv_reinit_debug PROGRAM launch_conv PES 2 ARGS reinit 2 64
  ENV SHMEM_DEBUG=1 SHMEM_VERSION=1 RUN_OPTIONS --quiet
  EXPECT_STDOUT "^shmemsim [0-9.]+: OpenSHMEM 1\\.5 library on a simulated cluster, 2 PEs\n[^\n]*launch_conv: OK on 2 PEs\n$"
  EXPECT_STDERR "(^|\n)shmemsim debug: PE 1: shmem_finalize: finalized\n" "(^|\n)shmemsim debug: PE 0: shmem_init: initialized again: "
  REJECT_STDOUT "FAIL")
# Nested: shmem_init, shmem_init_thread, then two shmem_finalize; the first one is a barrier.
shmemsim_program_test(launch_conv_nested PROGRAM launch_conv PES 3 ARGS nested
  RUN_OPTIONS --quiet STDERR_LINES 0 EXPECT_STDOUT "(^|\n)launch_conv: OK on 3 PEs\n" REJECT_STDOUT "FAIL")

# ------------------------------------------------------------------ SHMEM_SYMMETRIC_SIZE: 2147483648, 2G
# A plain byte count and the suffixed form: exactly 2 GiB can be allocated, one byte more cannot.
# (conv_heap is built by conventions.cmake.)
shmemsim_program_test(launch_conv_heap_bytes PROGRAM conv_heap PES 2 ARGS 2147483648 sparse
  ENV SHMEM_SYMMETRIC_SIZE=2147483648 RUN_OPTIONS --quiet STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 2 PEs\n" REJECT_STDOUT "FAIL")
shmemsim_program_test(launch_conv_heap_bytes_full PROGRAM conv_heap PES 2 ARGS 2147483649 sparse null
  ENV SHMEM_SYMMETRIC_SIZE=2147483648 RUN_OPTIONS --quiet
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 2 PEs\n" REJECT_STDOUT "FAIL"
  EXPECT_STDERR "PE 0: shmem_malloc: out of symmetric heap: 2147483649 bytes requested")
shmemsim_program_test(launch_conv_heap_2G PROGRAM conv_heap PES 3 ARGS 2147483648 sparse
  ENV SHMEM_SYMMETRIC_SIZE=2G RUN_OPTIONS --quiet STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 3 PEs\n" REJECT_STDOUT "FAIL")
shmemsim_program_test(launch_conv_heap_2G_info PROGRAM conv_heap PES 1 ARGS 4096 all
  ENV SHMEM_SYMMETRIC_SIZE=2G SHMEM_INFO=1 RUN_OPTIONS --quiet STDERR_LINES 0
  EXPECT_STDOUT "\\(\"2G\" = 2147483648 bytes\\)\n" REJECT_STDOUT "FAIL")
