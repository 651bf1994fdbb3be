# Conventions third-party OpenSHMEM codes rely on (included by CMakeLists.txt): the specification's
# environment variables, a default symmetric heap as large as common implementations', the legacy
# mpp/ headers, link-time errors for undefined symbols, the shmem_global_exit line and the
# placement notice. Uses shmemsim_program / shmemsim_program_test from CMakeLists.txt.

# ------------------------------------------------------------------ symmetric heap size
shmemsim_program(conv_heap SOURCES conv_heap/conv_heap.c)
set(_conv_mib 1048576)
# SHMEM_SYMMETRIC_SIZE=1G: 1000 MiB (more than the default) allocated, touched sparsely.
foreach(n 2 16)
  math(EXPR _bytes "1000 * ${_conv_mib}")
  shmemsim_program_test(conv_heap_1G PROGRAM conv_heap PES ${n} ARGS ${_bytes} sparse ENV SHMEM_SYMMETRIC_SIZE=1G
    EXPECT_STDOUT "(^|\n)conv_heap: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
endforeach()
# 512m is 2^29 bytes, at least: exactly 512 MiB can be allocated, one byte more cannot.
math(EXPR _bytes "512 * ${_conv_mib}")
shmemsim_program_test(conv_heap_512m PROGRAM conv_heap PES 2 ARGS ${_bytes} sparse ENV SHMEM_SYMMETRIC_SIZE=512m
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 2 PEs\n" REJECT_STDOUT "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
math(EXPR _bytes "512 * ${_conv_mib} + 1")
shmemsim_program_test(conv_heap_512m_full PROGRAM conv_heap PES 3 ARGS ${_bytes} sparse null
  ENV SHMEM_SYMMETRIC_SIZE=512m
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 3 PEs\n" REJECT_STDOUT "FAIL"
  EXPECT_STDERR "PE 0: shmem_malloc: out of symmetric heap: 536870913 bytes requested")
# The deprecated SMA_ name works (1 MiB: 2 MiB cannot be allocated); the SHMEM_ name wins over it.
math(EXPR _bytes "2 * ${_conv_mib}")
shmemsim_program_test(conv_heap_sma PROGRAM conv_heap PES 2 ARGS ${_bytes} sparse null
  ENV SMA_SYMMETRIC_SIZE=1m
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 2 PEs\n" REJECT_STDOUT "FAIL")
math(EXPR _bytes "600 * ${_conv_mib}")
shmemsim_program_test(conv_heap_sma_shmem_wins PROGRAM conv_heap PES 2 ARGS ${_bytes} sparse
  ENV SMA_SYMMETRIC_SIZE=1m SHMEM_SYMMETRIC_SIZE=0.75g
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 2 PEs\n" REJECT_STDOUT "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
# A bad value: one line naming the variable, the value and the accepted forms; status 2.
shmemsim_program_test(conv_heap_bad PROGRAM conv_heap PES 2 ARGS 1024 all ENV SHMEM_SYMMETRIC_SIZE=20kk
  EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: SHMEM_SYMMETRIC_SIZE=\"20kk\" is not a size; use [^\n]*k, m, g or t[^\n]*\"512m\", \"1G\""
  REJECT_STDOUT "conv_heap")
# The default heap (no setting): about 300 MiB allocated and every byte touched, as micro-benchmark
# suites do; and 64 PEs with the default heap start (the heaps are reserved, not committed).
math(EXPR _bytes "300 * ${_conv_mib}")
shmemsim_program_test(conv_heap_default PROGRAM conv_heap PES 2 ARGS ${_bytes} all
  EXPECT_STDOUT "(^|\n)conv_heap: 314572800 bytes \\(all touched\\)\n" "(^|\n)conv_heap: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
shmemsim_program_test(conv_heap_default PROGRAM conv_heap PES 64 ARGS ${_bytes} sparse
  EXPECT_STDOUT "(^|\n)conv_heap: OK on 64 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR "out of symmetric heap" ${NO_CRASH})

# ------------------------------------------------------------------ SHMEM_VERSION, SHMEM_INFO, SHMEM_DEBUG
# Any value turns them on (the specification's "Any"), "0" included; PE 0 prints on stdout.
shmemsim_program_test(conv_env_version PROGRAM conv_heap PES 2 ARGS 4096 all ENV SHMEM_VERSION=0
  EXPECT_STDOUT "^shmemsim [0-9.]+: OpenSHMEM 1\\.5 library on a simulated cluster, 2 PEs\nconv_heap"
  REJECT_STDOUT "SHMEM_SYMMETRIC_SIZE" "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
shmemsim_program_test(conv_env_info PROGRAM conv_heap PES 2 ARGS 4096 all ENV SHMEM_INFO=1 SHMEM_SYMMETRIC_SIZE=2m
  EXPECT_STDOUT "^shmemsim [0-9.]+: OpenSHMEM 1\\.5 library on a simulated cluster, 2 PEs\n"
                "\n  SHMEM_VERSION +any value: print the library version at start-up \\(not set\\)\n"
                "\n  SHMEM_INFO +any value: print this text at start-up \\(set\\)\n"
                "\n  SHMEM_SYMMETRIC_SIZE +symmetric heap per PE, in bytes: [^\n]*\n[^\n]*\n +e\\.g\\. 512m, 1G \\(\"2m\" = 2097152 bytes\\)\n"
                "\n  SHMEM_DEBUG +any value: debugging messages on stderr \\(not set\\)\n"
                "(^|\n)conv_heap: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
shmemsim_program_test(conv_env_info_default PROGRAM conv_heap PES 1 ARGS 4096 all ENV SMA_INFO=yes SHMEM_DEBUG=
  EXPECT_STDOUT "\\(not set: job.symmetric_heap = 536870912 bytes\\)\n" "SHMEM_INFO [^\n]*\\(set\\)"
                "SHMEM_DEBUG [^\n]*\\(set\\)"
  EXPECT_STDERR "(^|\n)shmemsim debug: PE 0: shmem_init: initialized" "(^|\n)shmemsim debug: PE 0: shmem_malloc: 4096 bytes")

# ------------------------------------------------------------------ legacy headers <mpp/shmem.h>, <mpp/shmemx.h>
shmemsim_program(conv_mpp SOURCES conv_mpp/conv_mpp.c)
shmemsim_program_test(conv_mpp PROGRAM conv_mpp PES 3
  EXPECT_STDOUT "(^|\n)conv_mpp: OK on 3 PEs\n" REJECT_STDOUT "FAIL" RUN_OPTIONS --quiet STDERR_LINES 0)
add_test(NAME prog_conv_mpp_install
  COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/conv_mpp
          -DWORK=${CMAKE_CURRENT_BINARY_DIR}/conv_mpp_install -P ${CMAKE_CURRENT_SOURCE_DIR}/conv_mpp/install.cmake)

# ------------------------------------------------------------------ undefined symbols refused at link time
add_test(NAME prog_conv_link
  COMMAND ${CMAKE_COMMAND} -DCC=${PROJECT_BINARY_DIR}/bin/shmemsim-cc -DRUN=${PROJECT_BINARY_DIR}/bin/shmemsim-run
          -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/conv_link -DWORK=${CMAKE_CURRENT_BINARY_DIR}/conv_link
          -P ${CMAKE_CURRENT_SOURCE_DIR}/conv_link/check.cmake)
set_tests_properties(prog_conv_mpp_install prog_conv_link PROPERTIES LABELS programs TIMEOUT 300)

# ------------------------------------------------------------------ shmem_global_exit names the PE and the status
shmemsim_program_test(conv_global_exit PROGRAM global_exit PES 3 EXPECT_STATUS 7 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE 2 called shmem_global_exit\\(7\\)\n$" REJECT_STDOUT "not reached")

# ------------------------------------------------------------------ placement notice
# 2 nodes x 4 cores, one of them the NIC's progress thread's: 8 PEs are 4 per node on 3 cores.
shmemsim_program_test(conv_placement PROGRAM conv_mpp PES 8
  RUN_OPTIONS --quiet --set platform.nodes=2 --set platform.cores_per_node=4
  EXPECT_STDOUT "(^|\n)conv_mpp: OK on 8 PEs\n" STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: 8 PEs on 2 nodes x 4 cores \\(3 for programs, 1 for the NIC's progress thread\\): 4 PEs per node \\(block placement\\) share their node's 3 cores\n$")
# Cyclic placement, uneven: 7 PEs are 3 or 4 per node.
shmemsim_program_test(conv_placement PROGRAM conv_mpp PES 7
  RUN_OPTIONS --quiet --set platform.nodes=2 --set platform.cores_per_node=2 --set job.placement=cyclic
  EXPECT_STDOUT "(^|\n)conv_mpp: OK on 7 PEs\n" STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: 7 PEs on 2 nodes x 2 cores \\(1 for programs, 1 for the NIC's progress thread\\): 3 to 4 PEs per node \\(cyclic placement\\) share their node's 1 core\n$")
# Only the nodes in use are counted: 8 PEs, 4 per node (--pes-per-node), on 2 of the 16 nodes.
shmemsim_program_test(conv_placement_ppn PROGRAM conv_mpp PES 8
  RUN_OPTIONS --quiet --pes-per-node 4 --set platform.cores_per_node=2
  EXPECT_STDOUT "(^|\n)conv_mpp: OK on 8 PEs\n" STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: 8 PEs on 2 of 16 nodes x 2 cores \\(1 for programs, 1 for the NIC's progress thread\\): 4 PEs per node \\(block placement\\) share their node's 1 core\n$")
# PEs that fit print nothing: one per node, and 2 per node with --pes-per-node.
shmemsim_program_test(conv_placement PROGRAM conv_mpp PES 16 RUN_OPTIONS --quiet STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)conv_mpp: OK on 16 PEs\n")
shmemsim_program_test(conv_placement PROGRAM conv_mpp PES 22 RUN_OPTIONS --quiet --pes-per-node 2 STDERR_LINES 0
  EXPECT_STDOUT "(^|\n)conv_mpp: OK on 22 PEs\n")
