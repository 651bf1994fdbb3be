# AsyncSHMEM (seed 001; docs/extensions-async.md): the seed's examples, communication-driven tasks,
# task versions of an integer sort and a tree search against their plain versions, misuse. Every
# program runs with both runtime designs: offload through the scenario key (job.async.runtime),
# contexts through the environment variable (SHMEM_ASYNC_RUNTIME), so both paths are exercised.
set(ASYNC_OFFLOAD RUN_OPTIONS --set job.async.runtime=offload --set job.async.workers=4)
set(ASYNC_CONTEXTS RUN_OPTIONS --set job.async.workers=4 ENV SHMEM_ASYNC_RUNTIME=contexts)

shmemsim_program(async_seed SOURCES async_seed/async_seed.c)
shmemsim_program(async_when SOURCES async_when/async_when.c)
shmemsim_program(async_isort SOURCES async_isort/async_isort.c)
shmemsim_program(async_uts SOURCES async_uts/async_uts.c)
shmemsim_program(async_errors SOURCES async_errors/async_errors.c FLAGS -pthread)

foreach(design offload contexts)
  string(TOUPPER ${design} D)
  foreach(n 1 3 8)
    shmemsim_program_test(async_seed_${design} PROGRAM async_seed PES ${n} ${ASYNC_${D}}
      EXPECT_STDOUT "(^|\n)async_seed: ${design} runtime, 4 workers" "(^|\n)async_seed: OK on ${n} PEs\n"
      REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
    shmemsim_program_test(async_when_${design} PROGRAM async_when PES ${n} ${ASYNC_${D}}
      EXPECT_STDOUT "(^|\n)async_when: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
  endforeach()
  foreach(n 1 4 8)
    shmemsim_program_test(async_isort_${design} PROGRAM async_isort PES ${n} ${ASYNC_${D}}
      EXPECT_STDOUT "(^|\n)async_isort: 4096 keys per PE, plain [0-9.]+ s, tasks [0-9.]+ s \\(${design}, 4 workers\\)"
                    "(^|\n)async_isort: OK on ${n} PEs\n"
      REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
    shmemsim_program_test(async_uts_${design} PROGRAM async_uts PES ${n} ${ASYNC_${D}}
      EXPECT_STDOUT "(^|\n)async_uts: [0-9]+ nodes \\(\\+1 root\\), plain [0-9.]+ s, tasks [0-9.]+ s \\(${design}, 4 workers\\)"
                    "(^|\n)async_uts: OK on ${n} PEs\n"
      REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
  endforeach()
endforeach()
# Deterministic: the same scenario gives byte-identical results, in both designs.
shmemsim_program_test(async_uts_determinism PROGRAM async_uts PES 3 COMPARE_RUNS ${ASYNC_OFFLOAD}
  EXPECT_STDOUT "(^|\n)async_uts: OK on 3 PEs\n" REJECT_STDOUT "FAIL")
shmemsim_program_test(async_isort_determinism PROGRAM async_isort PES 3 COMPARE_RUNS ${ASYNC_CONTEXTS}
  EXPECT_STDOUT "(^|\n)async_isort: OK on 3 PEs\n" REJECT_STDOUT "FAIL")
# The worker count by default (the PE's program cores: 11 on qdr-16, one left to the NIC progress) and from the environment.
shmemsim_program_test(async_seed_default_workers PROGRAM async_seed PES 2
  EXPECT_STDOUT "(^|\n)async_seed: offload runtime, 11 workers" "(^|\n)async_seed: OK on 2 PEs\n" REJECT_STDOUT "FAIL")
shmemsim_program_test(async_seed_env_workers PROGRAM async_seed PES 2 ENV SHMEM_ASYNC_WORKERS=7
  RUN_OPTIONS --set job.async.workers=3
  EXPECT_STDOUT "(^|\n)async_seed: offload runtime, 7 workers" "(^|\n)async_seed: OK on 2 PEs\n" REJECT_STDOUT "FAIL")

# Misuse: one line naming the routine, exit status 2; a task that can never run is a deadlock.
shmemsim_program_test(async_err_outside PROGRAM async_errors PES 1 ARGS outside EXPECT_STATUS 2
  EXPECT_STDERR "shmemx_task: called outside shmemx_worker_init" REJECT_STDOUT "no error")
shmemsim_program_test(async_err_twice PROGRAM async_errors PES 2 ARGS twice EXPECT_STATUS 2
  EXPECT_STDERR "shmemx_satisfy_promise: promise 0x[0-9a-f]+ is already satisfied" REJECT_STDOUT "no error")
shmemsim_program_test(async_err_scope PROGRAM async_errors PES 1 ARGS scope EXPECT_STATUS 2
  EXPECT_STDERR "shmemx_task_scope_end: no task scope is open" REJECT_STDOUT "no error")
shmemsim_program_test(async_err_open PROGRAM async_errors PES 1 ARGS open EXPECT_STATUS 2
  EXPECT_STDERR "a task returned with a task scope still open" REJECT_STDOUT "no error")
shmemsim_program_test(async_err_thread PROGRAM async_errors PES 1 ARGS thread EXPECT_STATUS 2
  EXPECT_STDERR "shmemx_task: called by a thread that is no worker of shmemx_worker_init" REJECT_STDOUT "no error")
shmemsim_program_test(async_err_never PROGRAM async_errors PES 2 ARGS never EXPECT_STATUS 3
  EXPECT_STDERR "deadlock" REJECT_STDOUT "no error")
shmemsim_program_test(async_err_env PROGRAM async_errors PES 1 ENV SHMEM_ASYNC_RUNTIME=fibers EXPECT_STATUS 2
  EXPECT_STDERR "shmemx_worker_init: SHMEM_ASYNC_RUNTIME='fibers' is not a runtime design \\(offload or contexts\\)"
  REJECT_STDOUT "no error")
shmemsim_program_test(async_err_key PROGRAM async_errors PES 1 RUN_OPTIONS --set job.async.runtime=fibers
  EXPECT_STATUS 2 EXPECT_STDERR "job.async.runtime" REJECT_STDOUT "no error")

# PEs sharing nodes (the watcher of communication-driven tasks beside other PEs' threads).
shmemsim_program_test(async_when_shared_nodes PROGRAM async_when PES 8
  RUN_OPTIONS --pes-per-node 4 --set job.async.workers=3 ENV SHMEM_ASYNC_RUNTIME=contexts
  EXPECT_STDOUT "(^|\n)async_when: OK on 8 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})

# The designs in the trace report: who issues the operations.
add_test(NAME prog_async_report
  COMMAND ${CMAKE_COMMAND} -DRUN=${PROJECT_BINARY_DIR}/bin/shmemsim-run -DSHMEMSIM=$<TARGET_FILE:shmemsim>
          -DPROG=${CMAKE_CURRENT_BINARY_DIR}/bin/async_isort -DSCENARIO=${SHMEMSIM_PROG_SCENARIO}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/out/async_report -P ${CMAKE_CURRENT_SOURCE_DIR}/async_report/check.cmake)
set_tests_properties(prog_async_report PROPERTIES LABELS programs TIMEOUT 300)
