# ================================================================== OpenSHMEM 1.6 additions
# Programs spec16_*: the routines OpenSHMEM 1.6 added beyond 1.5 that shmemsim provides
# (shmemsim/shmem_spec16.h) — blocked strided RMA over the whole RMA type table (typed, sized, ctx
# and C11 generic forms), prefix sums on teams over every SUM type, shmem_pe_quiet completing puts,
# shmem_signal_add/set seen by shmem_signal_wait_until, sessions, the new deprecated constants,
# pshmem_ names, and the same from C++ (overloads, std::complex). Misuse ends the run with one line.
# Included at the end of CMakeLists.txt (uses shmemsim_program, shmemsim_program_test, NO_CRASH).

foreach(prog spec16_ibrma spec16_scan spec16_sync)
  shmemsim_program(${prog} SOURCES ${prog}/${prog}.c FLAGS -std=c11 -Werror=implicit-function-declaration)
  shmemsim_program(${prog}_gnu11 SOURCES ${prog}/${prog}.c FLAGS -std=gnu11)
  foreach(n 1 2 3)
    shmemsim_program_test(${prog} PROGRAM ${prog} PES ${n}
      EXPECT_STDOUT "(^|\n)${prog}: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
  endforeach()
  shmemsim_program_test(${prog}_gnu11 PROGRAM ${prog}_gnu11 PES 2
    EXPECT_STDOUT "(^|\n)${prog}: OK on 2 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
# Two PEs on one node: shmem_pe_quiet is checked by reading the target's memory directly.
shmemsim_program_test(spec16_sync_shared PROGRAM spec16_sync PES 2 RUN_OPTIONS --pes-per-node 2
  EXPECT_STDOUT "(^|\n)spec16_sync: OK on 2 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
# Four PEs: the odd-PE team of the scans has two members.
shmemsim_program_test(spec16_scan PROGRAM spec16_scan PES 4
  EXPECT_STDOUT "(^|\n)spec16_scan: OK on 4 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})

# Misuse: overlapping blocks (dst < bsize), an undefined session configuration bit.
shmemsim_program_test(spec16_ibrma_badstride PROGRAM spec16_ibrma PES 2 ARGS badstride
  EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE [01]: shmem_int_ibput: strides dst 1 and sst 2 must be at least bsize 2"
  REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(spec16_sync_badmask PROGRAM spec16_sync PES 2 ARGS badmask
  EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE [01]: shmem_ctx_session_start: config_mask 6 has bits"
  REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})

# C++: C++17 and C++11.
shmemsim_program(spec16_cxx CXX SOURCES spec16_cxx/spec16_cxx.cpp FLAGS -std=c++17)
shmemsim_program(spec16_cxx11 CXX SOURCES spec16_cxx/spec16_cxx.cpp FLAGS -std=c++11)
foreach(n 1 2 3)
  shmemsim_program_test(spec16_cxx PROGRAM spec16_cxx PES ${n}
    EXPECT_STDOUT "(^|\n)spec16_cxx: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
shmemsim_program_test(spec16_cxx11 PROGRAM spec16_cxx11 PES 2
  EXPECT_STDOUT "(^|\n)spec16_cxx: OK on 2 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
