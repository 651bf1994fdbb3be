# ================================================================== OpenSHMEM 1.5 conformance
# Programs conf_*: what third-party codes and an OpenSHMEM 1.5 unit-test suite exercise — the C11
# type-generic interfaces over their whole type tables (built -std=c11 and -std=gnu11), the C++
# overloads and typed names, shmem_team_ptr, zero-length operations with NULL pointers, and the
# symmetric memory routines' edge cases (size 0, large alignments, bad alignment).
# Included at the end of CMakeLists.txt (uses shmemsim_program, shmemsim_program_test, NO_CRASH).

# conf_c11_p2p_returns: the multi-element point-to-point routines' return values in spin loops (the
# third-party tests' shape), short types included.
foreach(prog conf_c11_rma conf_c11_amo conf_c11_p2p conf_c11_coll conf_c11_p2p_returns)
  shmemsim_program(${prog} SOURCES ${prog}/${prog}.c FLAGS -std=c11)
  shmemsim_program(${prog}_gnu11 SOURCES ${prog}/${prog}.c FLAGS -std=gnu11)
  foreach(n 1 2 3)
    shmemsim_program_test(${prog} PROGRAM ${prog} PES ${n}
      EXPECT_STDOUT "(^|\n)${prog}: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
  endforeach()
  shmemsim_program_test(${prog}_gnu11 PROGRAM ${prog}_gnu11 PES 2
    EXPECT_STDOUT "(^|\n)${prog}: OK on 2 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()

# Zero-length operations with NULL pointers.
shmemsim_program(conf_zero SOURCES conf_zero/conf_zero.c FLAGS -std=c11)
foreach(n 1 2 3)
  shmemsim_program_test(conf_zero PROGRAM conf_zero PES ${n}
    EXPECT_STDOUT "(^|\n)conf_zero: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} "not symmetric")
endforeach()

# Symmetric memory: size 0, alignments up to 4 MiB, 1 GiB on a 3 GiB heap, a bad alignment.
shmemsim_program(conf_memory SOURCES conf_memory/conf_memory.c FLAGS -std=c11)
foreach(n 1 2 3)
  shmemsim_program_test(conf_memory PROGRAM conf_memory PES ${n}
    EXPECT_STDOUT "(^|\n)conf_memory: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
shmemsim_program_test(conf_memory_align1g PROGRAM conf_memory PES 2 ARGS 1073741824
  RUN_OPTIONS --set job.symmetric_heap=3GiB
  EXPECT_STDOUT "(^|\n)aligned to 1073741824 bytes\n" "(^|\n)conf_memory: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(conf_memory_badalign PROGRAM conf_memory PES 2 ARGS badalign
  EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE [01]: shmem_align: alignment 48 is not a power of two\n$"
  REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})

# shmem_team_ptr with one PE per node, and with several.
shmemsim_program(conf_team_ptr SOURCES conf_team_ptr/conf_team_ptr.c FLAGS -std=c11)
foreach(n 1 2)
  shmemsim_program_test(conf_team_ptr PROGRAM conf_team_ptr PES ${n}
    EXPECT_STDOUT "(^|\n)PE 0 reaches 1 of ${n} PEs" "(^|\n)conf_team_ptr: OK on ${n} PEs\n"
    REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
shmemsim_program_test(conf_team_ptr_2ppn PROGRAM conf_team_ptr PES 4 RUN_OPTIONS --pes-per-node 2
  EXPECT_STDOUT "(^|\n)PE 0 reaches 2 of 4 PEs" "(^|\n)conf_team_ptr: OK on 4 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(conf_team_ptr_3ppn PROGRAM conf_team_ptr PES 5 RUN_OPTIONS --pes-per-node 3
  EXPECT_STDOUT "(^|\n)PE 0 reaches 3 of 5 PEs" "(^|\n)conf_team_ptr: OK on 5 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})

# C++: the generic names as overloads (every type of each table, NULL status arrays, team forms)
# and the typed names, built as C++17 and C++11.
shmemsim_program(conf_cxx CXX SOURCES conf_cxx/conf_cxx.cpp FLAGS -std=c++17)
shmemsim_program(conf_cxx11 CXX SOURCES conf_cxx/conf_cxx.cpp FLAGS -std=c++11)
foreach(n 1 2 3)
  shmemsim_program_test(conf_cxx PROGRAM conf_cxx PES ${n}
    EXPECT_STDOUT "(^|\n)conf_cxx: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
shmemsim_program_test(conf_cxx11 PROGRAM conf_cxx11 PES 2
  EXPECT_STDOUT "(^|\n)conf_cxx: OK on 2 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})

# The 1.5 routine list and constants, written from the specification: every routine referenced
# (declared and defined), constants' values and properties, query/team/context answers.
shmemsim_program(conf_api SOURCES conf_api/conf_api.c FLAGS -std=c11 -Werror=implicit-function-declaration)
foreach(n 1 2 3)
  shmemsim_program_test(conf_api PROGRAM conf_api PES ${n}
    EXPECT_STDOUT "(^|\n)conf_api: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
