# ================================================================== counted compute by work (issue 13)
# Each basic block is charged its instruction count (GCC's estimate, compile time) times
# platform.instruction_time; an innermost loop whose iterations form a dependency chain takes at
# least the sum of its operations' latencies, per class (platform.latency.int, load, fp_add,
# fp_mul; other operations count Westmere's cycles at the integer latency). With 1ns per
# instruction (1ps per integer operation) a loop's time per iteration is its instruction count in
# ns: the heavier loop costs more, exactly the same on every run. With 1ps per instruction a
# floating-point recurrence costs its multiply + add latency: 1.5 + 0.9 ns at qdr-16's (Westmere's
# 5 and 3 cycles of 300 ps); with each class at its own power of ten, each loop's chain shows its
# composition. Divides: platform.divide_time each.
# These runs check counted costs to the nanosecond per iteration: operating-system noise (on in
# qdr-16: 1.458 us every ms of a thread's work, docs/model.md) is off, as the program compares the
# times of identical loops.
# The cache model is off in them (platform.cache.sampling=0): a first reference to a line would add
# its miss to the loops' exact figures (compute_weight_memory below checks the model).
set(SHMEMSIM_EXACT --set platform.noise.enabled=false --set platform.cache.sampling=0)
shmemsim_program(compute_weight SOURCES compute_weight/compute_weight.c)
shmemsim_program_test(compute_weight_work PROGRAM compute_weight PES 1 ARGS work COMPARE_RUNS
  RUN_OPTIONS ${SHMEMSIM_EXACT} --set platform.instruction_time=1ns --set platform.latency.int=1ps
  EXPECT_STDOUT "(^|\n)light 6\\.00 ns/iteration, heavy 10\\.00 ns/iteration\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(compute_weight_floor PROGRAM compute_weight PES 1 ARGS floor COMPARE_RUNS
  RUN_OPTIONS ${SHMEMSIM_EXACT} --set platform.preset=qdr-16 --set platform.instruction_time=1ps
  EXPECT_STDOUT "(^|\n)chain 2\\.40 ns/iteration\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(compute_weight_classes PROGRAM compute_weight PES 1 ARGS classes COMPARE_RUNS
  RUN_OPTIONS ${SHMEMSIM_EXACT} --set platform.instruction_time=1ps --set platform.latency.int=1ns --set platform.latency.load=10ns
              --set platform.latency.fp_add=100ns --set platform.latency.fp_mul=1000ns
  EXPECT_STDOUT "(^|\n)multiply-add 1100\\.00, pointer chase 10\\.00, integer 3\\.00, integer multiply 4\\.00 ns/iteration\n"
                "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
# The reorder window (platform.reorder_window): rows of floating adds at 100 ns each. A long row is a
# chain whatever the window; 20000 short rows of 4 adds, each summed from 0, overlap their chains in a
# window of 65536 instructions (a few ns per add), not in none (100 ns); rows whose sum goes on from the
# last row's never overlap.
set(SHMEMSIM_WINDOW_COSTS --set platform.instruction_time=1ps --set platform.latency.int=1ps --set platform.latency.load=1ps
    --set platform.latency.fp_mul=1ps --set platform.latency.fp_add=100ns)
shmemsim_program_test(compute_weight_window_wide PROGRAM compute_weight PES 1 ARGS window COMPARE_RUNS
  RUN_OPTIONS ${SHMEMSIM_EXACT} ${SHMEMSIM_WINDOW_COSTS} --set platform.reorder_window=65536
  EXPECT_STDOUT "(^|\n)long 100\\.00, short [0-4]\\.[0-9][0-9], carried 100\\.0[01] ns/add\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(compute_weight_window_none PROGRAM compute_weight PES 1 ARGS window
  RUN_OPTIONS ${SHMEMSIM_EXACT} ${SHMEMSIM_WINDOW_COSTS} --set platform.reorder_window=0
  EXPECT_STDOUT "(^|\n)long 100\\.00, short 100\\.0[01], carried 100\\.0[01] ns/add\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(compute_weight_window_bad PROGRAM compute_weight PES 1 RUN_OPTIONS --set platform.reorder_window=-1
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.reorder_window")
# With 1ns per divide (1ps per instruction and integer operation) a loop with one divide and one square root per
# iteration costs 2 ns an iteration.
shmemsim_program_test(compute_weight_divide PROGRAM compute_weight PES 1 ARGS divide COMPARE_RUNS
  RUN_OPTIONS ${SHMEMSIM_EXACT} --set platform.instruction_time=1ps --set platform.latency.int=1ps --set platform.divide_time=1ns
  EXPECT_STDOUT "(^|\n)divide 2\\.00 ns/iteration\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
# The cache model (platform.cache.*, platform.memory.*): the same scattered reads over 16 KiB (hits in
# L1, no cost beyond the instructions) and over 64 MiB (misses to memory: qdr-16's 82 ns less the L1
# hit, over 10 misses in flight, about 8 ns a read, and a page walk's 6.9 ns over the same 10: 1.35
# and 10.25 ns here); twice the same figures.
shmemsim_program_test(compute_weight_memory PROGRAM compute_weight PES 1 ARGS memory COMPARE_RUNS
  RUN_OPTIONS --set platform.preset=qdr-16 --set platform.noise.enabled=false
  EXPECT_STDOUT "(^|\n)memory: small [0-9]+\\.[0-9]+, large [0-9]+\\.[0-9]+ ns/read\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
# Bad cache keys: one line naming the key, status 2.
shmemsim_program_test(compute_weight_cache_bad_sampling PROGRAM compute_weight PES 1 RUN_OPTIONS --set platform.cache.sampling=3
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.cache.sampling")
shmemsim_program_test(compute_weight_cache_bad_line PROGRAM compute_weight PES 1 RUN_OPTIONS --set platform.cache.line=48
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.cache.line")
shmemsim_program_test(compute_weight_cache_bad_size PROGRAM compute_weight PES 1 RUN_OPTIONS --set platform.cache.l2.size=512
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.cache.l2.size")
shmemsim_program_test(compute_weight_memory_bad_parallelism PROGRAM compute_weight PES 1
  RUN_OPTIONS --set platform.memory.parallelism=0 EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.memory.parallelism")
# The data TLBs (platform.cache.tlb.*): the same reads over 64 MiB (16384 pages, 32 times the 512
# entries of qdr-16's second level) with a page walk of 80 ns and one walk at a time: each read costs
# the walk (80 ns > 8 ns of memory + 8 ns of walk over the misses in flight) and its instructions.
shmemsim_program_test(compute_weight_tlb_walks PROGRAM compute_weight PES 1 ARGS memory
  RUN_OPTIONS --set platform.preset=qdr-16 --set platform.noise.enabled=false --set platform.cache.tlb.walk=80ns
  EXPECT_STDOUT "(^|\n)memory: small 1\\.350, large 8[01]\\.[0-9]+ ns/read\n" "(^|\n)compute_weight: OK on 1 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH})
shmemsim_program_test(compute_weight_tlb_bad_walkers PROGRAM compute_weight PES 1
  RUN_OPTIONS --set platform.cache.tlb.walkers=0 EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.cache.tlb.walkers")

# compute_scale still scales: twice the work time at scale 2.
shmemsim_program_test(compute_weight_scale PROGRAM compute_weight PES 1 ARGS work
  RUN_OPTIONS ${SHMEMSIM_EXACT} --set platform.instruction_time=1ns --set platform.latency.int=1ps --set job.compute_scale=2
  EXPECT_STDOUT "(^|\n)light 12\\.00 ns/iteration, heavy 20\\.00 ns/iteration\n"
  REJECT_STDERR ${NO_CRASH})

# shmemsim calibrate --quick: builds and runs its kernels natively and counted, writes a scenario
# that validates and names this machine's cores and costs.
add_test(NAME prog_calibrate_quick
  COMMAND ${CMAKE_COMMAND} -DBIN=${PROJECT_BINARY_DIR}/bin -DOUT=${CMAKE_CURRENT_BINARY_DIR}/out/calibrate_quick
          -P ${CMAKE_CURRENT_SOURCE_DIR}/compute_weight/check_calibrate.cmake)
set_tests_properties(prog_calibrate_quick PROPERTIES LABELS programs TIMEOUT 300)
# A cost out of range is one line naming the key, status 2.
shmemsim_program_test(compute_weight_bad_cost PROGRAM compute_weight PES 1 RUN_OPTIONS --set platform.instruction_time=2s
  EXPECT_STATUS 2 STDERR_LINES 1 EXPECT_STDERR "platform.instruction_time")

# The inline count (shmemsim-cc's default: each block updates the work left in the program's own
# code) charges exactly what counting by calls does (SHMEMSIM_CC_COUNT=calls): count_paths (code of
# many shapes, threads, a busy wait decided by the slices), compute_weight and the calibration
# kernels, built both ways, give the same output, summary and trace byte for byte.
add_test(NAME prog_compute_inline_count
  COMMAND ${CMAKE_COMMAND} -DBIN=${PROJECT_BINARY_DIR}/bin -DSRC=${CMAKE_CURRENT_SOURCE_DIR}
          -DKERNELS=${PROJECT_SOURCE_DIR}/tools/calibrate -DOUT=${CMAKE_CURRENT_BINARY_DIR}/out/compute_inline_count
          -P ${CMAKE_CURRENT_SOURCE_DIR}/compute_weight/check_inline_count.cmake)
set_tests_properties(prog_compute_inline_count PROPERTIES LABELS programs TIMEOUT 900)

# Deferred time slices (sim/DeferredSlices): runs with SHMEMSIM_DEFER_SLICES=off and on are identical
# byte for byte (stdout, stderr, summary, trace), and =check verifies each deferred slice's date
# against the execution SimGrid would have made: a kernel alone, spin-waits (put, sibling thread,
# shmem_ptr store, an endless loop ended by the time limit; polls when computation is free), Mandelbrot,
# integer sort, threads, OpenMP.
add_test(NAME prog_deferred_slices
  COMMAND ${CMAKE_COMMAND} -DBIN=${PROJECT_BINARY_DIR}/bin -DPROGS=${CMAKE_CURRENT_BINARY_DIR}/bin
          -DKERNELS=${PROJECT_SOURCE_DIR}/tools/calibrate -DOUT=${CMAKE_CURRENT_BINARY_DIR}/out/deferred_slices
          -P ${CMAKE_CURRENT_SOURCE_DIR}/compute_weight/check_deferred_slices.cmake)
set_tests_properties(prog_deferred_slices PROPERTIES LABELS programs TIMEOUT 900)
