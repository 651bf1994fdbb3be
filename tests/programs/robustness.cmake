# ================================================================== robustness (issue 12)
# Each PE has its own environment (setenv/putenv/unsetenv, environ, envp), shared by its threads.
shmemsim_program(environ SOURCES environ/environ.c FLAGS -pthread)
foreach(n 1 3)
  shmemsim_program_test(environ PROGRAM environ PES ${n} ENV SHMEMSIM_TEST_VAR=launcher COMPARE_RUNS
    EXPECT_STDOUT "(^|\n)environ: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
# Ctrl-C / kill during a run: one line, status 130 / 143; load errors leave no temporary directory.
add_test(NAME prog_interrupt
  COMMAND ${CMAKE_COMMAND} -DRUN=${SHMEMSIM_PROG_RUN} -DPROG=${CMAKE_CURRENT_BINARY_DIR}/bin/spin_wait
          -DWORK=${CMAKE_CURRENT_BINARY_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/interrupt/check.cmake)
set_tests_properties(prog_interrupt PROPERTIES LABELS programs TIMEOUT 120)
