# ================================================================== time slicing (issue 11)
# Spin-waits on memory progress: a thread that computes a quantum (job.compute_quantum) without a
# library call is charged and yields, so the put that releases a spinning PE is delivered.
shmemsim_program(spin_wait SOURCES spin_wait/spin_wait.c FLAGS -pthread)
foreach(n 2 4)
  shmemsim_program_test(spin_wait_put PROGRAM spin_wait PES ${n} ARGS put COMPARE_RUNS
    EXPECT_STDOUT "(^|\n)PE 1 released after [0-9.]+ us\n" "(^|\n)spin_wait: OK on ${n} PEs\n"
    REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} WALL_LIMIT 60)
endforeach()
# Every compute mode: none polls (one poll cost per quantum of counted work), measured slices by it too.
foreach(mode none measured)
  shmemsim_program_test(spin_wait_put_${mode} PROGRAM spin_wait PES 3 ARGS put RUN_OPTIONS --set job.compute=${mode}
    EXPECT_STDOUT "(^|\n)spin_wait: OK on 3 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} WALL_LIMIT 60)
endforeach()
# A thread stores to symmetric memory and calls shmem_quiet: its sibling blocked in
# shmem_long_wait_until on that word wakes (10 us of sleep + 20000 loop iterations later; one
# iteration of spin_wait.c's busy loop is 8 counted instructions, 1.2 ns on qdr-16: 24 us).
shmemsim_program_test(spin_wait_sibling PROGRAM spin_wait PES 2 ARGS sibling COMPARE_RUNS
  EXPECT_STDOUT "(^|\n)sibling store seen after 34\\.[0-9] us\n" "(^|\n)spin_wait: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} "deadlock" WALL_LIMIT 60)
# The storing thread never calls the library again (it spins): the store is seen when its time
# slice ends, at most one quantum (2 us by default; 10 us here) after the 34 us of sleep and loop.
shmemsim_program_test(spin_wait_slice PROGRAM spin_wait PES 2 ARGS slice COMPARE_RUNS
  EXPECT_STDOUT "(^|\n)sibling store seen after 3[4-6]\\.[0-9] us\n" "(^|\n)spin_wait: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} "deadlock" WALL_LIMIT 60)
shmemsim_program_test(spin_wait_slice_10us PROGRAM spin_wait PES 2 ARGS slice RUN_OPTIONS --set job.compute_quantum=10us
  EXPECT_STDOUT "(^|\n)sibling store seen after (3[4-9]|4[0-4])\\.[0-9] us\n" "(^|\n)spin_wait: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} "deadlock" WALL_LIMIT 60)
# An endless loop ends at the simulated-time limit (status 4), naming the PE that was computing.
shmemsim_program_test(spin_wait_forever PROGRAM spin_wait PES 2 ARGS forever RUN_OPTIONS --sim-time-limit 2ms
  EXPECT_STATUS 4
  EXPECT_STDERR "simulated-time limit of 2ms reached"
                "(^|\n)shmemsim-run: +PE 0 was computing: no library call for the last 0\\.00[0-9]+ s of simulated time"
  REJECT_STDERR ${NO_CRASH} "PE 1 was computing" WALL_LIMIT 60)
# A quantum below 100ns is refused, naming the key.
shmemsim_program_test(spin_wait_bad_quantum PROGRAM spin_wait PES 1 RUN_OPTIONS --set job.compute_quantum=10ns
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "job.compute_quantum" "at least 100ns")
# A bad value of the debugging aid SHMEMSIM_DEFER_SLICES is refused in one line, naming it.
shmemsim_program_test(spin_wait_bad_defer PROGRAM spin_wait PES 1 ENV SHMEMSIM_DEFER_SLICES=sometimes
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "SHMEMSIM_DEFER_SLICES=sometimes: expected on \\(the default\\), off or check")
# A store through shmem_ptr into the memory of another PE of the node wakes that PE's waiter at
# the storing PE's next library call (after its 20000 iterations of busy loop, 24 us).
shmemsim_program_test(spin_wait_ptr PROGRAM spin_wait PES 2 ARGS ptr RUN_OPTIONS --pes-per-node 2 COMPARE_RUNS
  EXPECT_STDOUT "(^|\n)store through shmem_ptr seen after 2[45]\\.[0-9] us\n" "(^|\n)spin_wait: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} "deadlock" WALL_LIMIT 60)
