# Conventions third-party OpenSHMEM codes rely on (included by CMakeLists.txt): the specification's
# environment variables, a default symmetric heap as large as common implementations', the legacy
# mpp/ headers and link-time errors for undefined symbols. Uses shmemsim_program / shmemsim_program_test from CMakeLists.txt.

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
set_tests_properties(prog_conv_mpp_install prog_conv_link PROPERTIES LABELS programs)

