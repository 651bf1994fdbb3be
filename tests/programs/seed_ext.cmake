# Seed 003's extensions (ORNL): explicit active sets, requests, non-blocking collectives,
# finalize/abort (shmemx.h, docs/extensions.md). The programs use the seed's own names.
shmemsim_program(aset_seed SOURCES aset_seed/aset_seed.c FLAGS -DSHMEMSIM_SEED_NAMES)
foreach(n 1 2 3 5 8 12)
  shmemsim_program_test(aset_seed PROGRAM aset_seed PES ${n}
    EXPECT_STDOUT "(^|\n)aset_seed: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
shmemsim_program_test(aset_seed_dup PROGRAM aset_seed PES 2 ARGS dup EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE [01]: shmemx_create_generic_aset: generic set of 2 PEs: PE 0 appears twice[^\n]*\n$"
  REJECT_STDOUT "not reached")

shmemsim_program(nb_rma SOURCES nb_rma/nb_rma.c FLAGS -DSHMEMSIM_SEED_NAMES)
foreach(n 1 2 3 8)
  shmemsim_program_test(nb_rma PROGRAM nb_rma PES ${n}
    EXPECT_STDOUT "(^|\n)nb_rma: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} COMPARE_RUNS)
endforeach()
# quiet does not complete a request, fence does not order it (a slow network keeps 1 MiB in
# flight well after the flag); an nbi put is complete after quiet; every request after its wait.
shmemsim_program_test(nb_rma_semantics PROGRAM nb_rma PES 2 ARGS semantics
  RUN_OPTIONS --set platform.fabric.link_bandwidth=1Gbps --set platform.nic.injection_queues=4
  EXPECT_STDOUT "(^|\n)nb_rma: request put: request complete right after quiet: no\n"
                "(^|\n)nb_rma: request put: [0-9]+ of 1048576 bytes in place when the flag set after quiet arrived: still in flight\n"
                "(^|\n)nb_rma: nbi put: 1048576 of 1048576 bytes in place when the flag set after quiet arrived: complete\n"
                "(^|\n)nb_rma: request put: [0-9]+ of 1048576 bytes in place when the flag set after fence arrived: still in flight\n"
                "(^|\n)nb_rma: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nb_rma_semantics_8 PROGRAM nb_rma PES 8 ARGS semantics
  RUN_OPTIONS --set platform.fabric.link_bandwidth=1Gbps --set platform.nic.injection_queues=4
  EXPECT_STDOUT "(^|\n)nb_rma: request put: [0-9]+ of 1048576 bytes in place when the flag set after quiet arrived: still in flight\n"
                "(^|\n)nb_rma: OK on 8 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
# No CT left for requests (the runtime keeps 2): the documented fallback counts them on the default
# context, whose quiet then completes them too; one notice line; results still right.
shmemsim_program_test(nb_rma_semantics_no_counters PROGRAM nb_rma PES 2 ARGS semantics
  RUN_OPTIONS --set platform.fabric.link_bandwidth=1Gbps --set platform.nic.injection_queues=4
              --set platform.nic.limits.max_cts=2
  EXPECT_STDOUT "(^|\n)nb_rma: request put: request complete right after quiet: yes\n" "(^|\n)nb_rma: OK on 2 PEs\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a request shares the default context's completion counter: max_cts \\(2\\) reached\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
# Each outstanding request holds a CT + an MD; with max_cts=8 (2 kept by the runtime) the 32
# outstanding gets share counters: one notice line per PE, values still right.
shmemsim_program_test(nb_rma_many PROGRAM nb_rma PES 4 ARGS many
  EXPECT_STDOUT "(^|\n)nb_rma: OK on 4 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR "shares" ${NO_CRASH})
shmemsim_program_test(nb_rma_many_shared PROGRAM nb_rma PES 4 ARGS many
  RUN_OPTIONS --set platform.nic.limits.max_cts=8
  EXPECT_STDOUT "(^|\n)nb_rma: OK on 4 PEs\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a request shares the completion counter of an earlier request: max_cts \\(8\\) reached\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nb_rma_leak PROGRAM nb_rma PES 2 ARGS leak
  EXPECT_STDOUT "(^|\n)nb_rma: OK on 2 PEs\n" "(^|\n)nb_rma: leak: target 1 after finalize\n"
  EXPECT_STDERR "(^|\n)shmemsim: PE 0: shmem_finalize: 1 request was never waited for or tested to completion \\(completed now\\): #[0-9]+ shmemx_int_get_req\n"
  REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nb_rma_abort PROGRAM nb_rma PES 3 ARGS abort EXPECT_STATUS 5
  EXPECT_STDERR "(^|\n)shmemsim: PE 2: shmemx_abort\\(5\\): ending every PE\n"
  REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})

shmemsim_program(nbc_order SOURCES nbc_order/nbc_order.c FLAGS -DSHMEMSIM_SEED_NAMES)
foreach(n 1 2 3 8)
  shmemsim_program_test(nbc_order PROGRAM nbc_order PES ${n}
    EXPECT_STDOUT "(^|\n)nbc_order: OK on ${n} PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
endforeach()
shmemsim_program_test(nbc_order PROGRAM nbc_order PES 4 COMPARE_RUNS
  EXPECT_STDOUT "(^|\n)nbc_order: OK on 4 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nbc_order_busy PROGRAM nbc_order PES 2 ARGS busy EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE [01]: shmemx_barrier_aset_req: pSync 0x[0-9a-f]+ is in use by an outstanding non-blocking collective of this PE[^\n]*\n$"
  REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nbc_order_delete PROGRAM nbc_order PES 2 ARGS delete EXPECT_STATUS 2 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE [01]: shmemx_delete_aset: 1 non-blocking collective\\(s\\) on the set have not completed[^\n]*\n$"
  REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})
foreach(n 2 4)
  shmemsim_program_test(nbc_order_mismatch PROGRAM nbc_order PES ${n} ARGS mismatch EXPECT_STATUS 2 STDERR_LINES 1
    EXPECT_STDERR "^shmemsim-run: PE [01]: shmemx_wait_request: non-blocking [a-z]+ #[01] on an active set of 2 PEs \\(started by shmemx_[a-z0-9_]+_req, pSync 0x[0-9a-f]+\\): the other members started a different collective as their #[01] on the set \\(non-blocking collectives must be called in the same order on every PE of the set\\)\n$"
    REJECT_STDOUT "not reached" REJECT_STDERR ${NO_CRASH})
endforeach()
# job.collectives.barrier=triggered: the NICs run the non-blocking barriers (two outstanding on a
# set, tested without blocking, beside the blocking barrier of the same PEs), against the signalling
# protocol (nbc_offload/offload.sh); nbc_order's mixes with it, and with broadcast and reduce
# =triggered, whose non-blocking forms the NICs run too (but the floating-point reduction: one notice).
shmemsim_program(nbc_offload SOURCES nbc_offload/nbc_offload.c FLAGS -DSHMEMSIM_SEED_NAMES)
add_test(NAME nbc_offload
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/nbc_offload/offload.sh ${SHMEMSIM_PROG_RUN}
          $<TARGET_PROPERTY:prog_nbc_offload,SHMEMSIM_PROGRAM_FILE> ${CMAKE_CURRENT_BINARY_DIR}/out/nbc_offload)
set_tests_properties(nbc_offload PROPERTIES TIMEOUT 120 LABELS programs PASS_REGULAR_EXPRESSION "nbc_offload: OK")
shmemsim_program_test(nbc_offload_16 PROGRAM nbc_offload PES 16 ARGS strict RUN_OPTIONS --set job.collectives.barrier=triggered
  EXPECT_STDOUT "(^|\n)nbc_offload: OK on 16 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nbc_order_offloaded PROGRAM nbc_order PES 8 RUN_OPTIONS ${SHMEMSIM_OFFLOADED}
  EXPECT_STDOUT "(^|\n)nbc_order: OK on 8 PEs\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE [0-9]+: job.collectives.reduce=triggered: floating-point reductions are not offloaded \\(the NICs would combine in arrival order\\). non-blocking reductions run as the library's signalling protocol\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR "non-blocking broadcasts" ${NO_CRASH})
# job.collectives.broadcast|reduce=triggered: several non-blocking broadcasts (other roots) and
# reductions outstanding on one set, each on NIC counters of its own, with different data checked
# element by element, against the signalling protocol (nbc_offload_data/offload.sh).
shmemsim_program(nbc_offload_data SOURCES nbc_offload_data/nbc_offload_data.c FLAGS -DSHMEMSIM_SEED_NAMES)
add_test(NAME nbc_offload_data
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/nbc_offload_data/offload.sh ${SHMEMSIM_PROG_RUN}
          $<TARGET_PROPERTY:prog_nbc_offload_data,SHMEMSIM_PROGRAM_FILE> ${CMAKE_CURRENT_BINARY_DIR}/out/nbc_offload_data)
set_tests_properties(nbc_offload_data PROPERTIES TIMEOUT 120 LABELS programs PASS_REGULAR_EXPRESSION "nbc_offload_data: OK")
# 16 PEs of slingshot-11 (max_atomic_size 16 B: only the short min fits; the others keep the protocol).
shmemsim_program_test(nbc_offload_data_slingshot PROGRAM nbc_offload_data PES 16
  RUN_OPTIONS --set platform.preset=slingshot-11 --set job.collectives.broadcast=triggered --set job.collectives.reduce=triggered
  EXPECT_STDOUT "(^|\n)nbc_offload_data: OK on 16 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH}
  EXPECT_STDERR "(^|\n)shmemsim-run: PE [0-9]+: job.collectives.reduce=triggered: the data exceed platform.nic.limits.max_atomic_size \\(one atomic per child\\). non-blocking reductions run as the library's signalling protocol\n")
# Each outstanding call's PTs count against max_pt_index: beyond it, one line naming it, status 2.
shmemsim_program_test(nbc_offload_data_pt_limit PROGRAM nbc_offload_data PES 4 EXPECT_STATUS 2
  RUN_OPTIONS --set job.collectives.broadcast=triggered --set job.collectives.reduce=triggered
              --set platform.nic.limits.max_pt_index=8
  EXPECT_STDERR "(^|\n)shmemsim-run: PE [0-9]+: job.collectives.reduce=triggered: PE [0-9]+'s non-blocking reduction's portal table entry: portal index above max_pt_index \\(8\\) \\(raise platform.nic.limits, or use another algorithm\\)\n"
  REJECT_STDERR ${NO_CRASH})
# Few NIC counters: the collectives' requests share them (or the default context's).
shmemsim_program_test(nbc_order_no_counters PROGRAM nbc_order PES 4 RUN_OPTIONS --set platform.nic.limits.max_cts=2
  EXPECT_STDOUT "(^|\n)nbc_order: OK on 4 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nbc_order_few_counters PROGRAM nbc_order PES 8 RUN_OPTIONS --set platform.nic.limits.max_cts=4
  EXPECT_STDOUT "(^|\n)nbc_order: OK on 8 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})

# Requests from 4 threads per PE (SHMEM_THREAD_MULTIPLE), with enough counters and with few.
shmemsim_program(nb_threads SOURCES nb_threads/nb_threads.c FLAGS -pthread -DSHMEMSIM_SEED_NAMES)
shmemsim_program_test(nb_threads PROGRAM nb_threads PES 3
  EXPECT_STDOUT "(^|\n)nb_threads: OK on 3 PEs\n" REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(nb_threads_few_counters PROGRAM nb_threads PES 3 RUN_OPTIONS --set platform.nic.limits.max_cts=6
  EXPECT_STDOUT "(^|\n)nb_threads: OK on 3 PEs\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a request shares the completion counter of an earlier request: max_cts \\(6\\) reached\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
