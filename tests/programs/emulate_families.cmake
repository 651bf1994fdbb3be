# ================================================================== every program family in emulation
# (issue 25) Each family of program tests runs in both backends with the same answers: the data
# the program checks (its OK line, the same checksums), the same exit status and the same one-line
# messages. This file adds the emulated runs CMakeLists.txt's emulation block does not have; the
# families that cannot run emulated say why below. Smallest PE counts and sizes that exercise each
# family (every PE is a process with a progress thread: a few seconds each at most).
# Included at the end of CMakeLists.txt (uses shmemsim_emulate_test, shmemsim_program_test,
# SHMEMSIM_EMU_OPTIONS, NO_CRASH).
#
# Simulator-only, by nature (what they check exists in simulated time or in the models only):
#   time_sleep (a fixed simulated date, exact durations), spin_wait's sibling/slice/ptr/forever
#   cases (time slices, dates in simulated time, --sim-time-limit), compute_weight and
#   prog_calibrate_quick, prog_compute_inline_count, prog_deferred_slices (the counted compute
#   mode), coll_barrier_time and stack_semantics (simulated durations of barriers and Portals
#   calls), thread_cores, omp_cores, thread_interference (the cores' and NIC's models), trace_threads,
#   trace_overlap, prog_trace_checks, prog_trace_stream, prog_async_report (simulated traces; the
#   emulator's have emu_trace and emu_overlap), the COMPARE_RUNS determinism checks (an emulated run
#   is not deterministic: real time and scheduling; determinism's own data check runs below),
#   placement notices and --pes-per-node cases (conv_placement, launch_conv's node sharing,
#   team_split_4ppn, conf_team_ptr_2ppn/3ppn, spec16_sync_shared, listing3/listing4/nas_is ppn runs:
#   the emulator maps no memory between the PEs of a host, docs/emulator.md), nb_rma_semantics*
#   (a message still in flight at a given simulated time).
# Simulator-only, by a stated difference of the emulator (docs/emulator.md):
#   wait_test, thread_detach (see CMakeLists.txt), omp_team and omp_tasks (libgomp's answers),
#   omp_loops_bad_schedule (libgomp reads OMP_SCHEDULE, not shmemsim's runtime), omp_unsupported
#   (compile time: shmemsim-cc refuses what shmemsim's OpenMP runtime lacks), crash_fork (fork() is
#   refused in a simulation only: an emulated PE is a process of its own and may fork), crash_handler
#   (the emulated PE's own crash handlers are what signal()/sigaction() show the program, and the
#   program's handler then runs, as on any machine; the simulator shows the program its own view and
#   reports the crash instead), prog_interrupt
#   (emu_kill_cleanup), the *_gnu11 / conf_cxx11 / spec16_cxx11 builds (the same source under another
#   language standard: a compiler question, not a backend one).
# Build-time and launcher-only tests have no backend: prog_makefile_build, prog_conv_link,
# prog_conv_mpp_install, prog_launch_conv_wrapper/project, prof_pshmem_symbols, conv_heap_bad.

# An emulated run expected to end with a status other than 0 and one line naming what went wrong,
# as the simulator's test of the same case (CRASH: the run ends with a crash report) (the emulator's last line is only printed by a job that
# finishes: an error ends it with the PE's own line).
# EACH_PE LINE: a misuse every PE makes at once. A simulation stops at the first PE that says so; in
# a real run each may say it before the launcher stops the others: 1 to PES lines, each matching LINE.
function(shmemsim_emulate_error_test NAME)
  cmake_parse_arguments(E "CRASH" "PROGRAM;PES;EXPECT_STATUS;STDERR_LINES;EACH_PE" "ARGS;RUN_OPTIONS;ENV;EXPECT_STDERR;REJECT_STDOUT" ${ARGN})
  set(lines "")
  if(DEFINED E_STDERR_LINES)
    set(lines STDERR_LINES ${E_STDERR_LINES})
  endif()
  if(DEFINED E_EACH_PE)
    set(lines STDERR_LINES 1-${E_PES} STDERR_EACH_LINE ${E_EACH_PE})
  endif()
  set(no_crash ${NO_CRASH})
  if(E_CRASH)
    set(no_crash "") # a crash is what the test expects
  endif()
  shmemsim_program_test(emu_${NAME} PROGRAM ${E_PROGRAM} PES ${E_PES} ARGS ${E_ARGS} ENV ${E_ENV} WALL_LIMIT 60
    RUN_OPTIONS ${SHMEMSIM_EMU_OPTIONS} ${E_RUN_OPTIONS} EXPECT_STATUS ${E_EXPECT_STATUS} ${lines}
    EXPECT_STDERR ${E_EXPECT_STDERR} REJECT_STDOUT "not reached" ${E_REJECT_STDOUT}
    REJECT_STDERR ${no_crash} "without the job's token")
endfunction()

# ------------------------------------------------------------------ the paper's programs
# Listing 3 (Mandelbrot): the checksum of the simulated runs (the image does not depend on the PEs).
foreach(arg "" nbi)
  set(tag "")
  if(arg)
    set(tag _${arg})
  endif()
  shmemsim_emulate_test(listing3_mandelbrot${tag} PROGRAM listing3_mandelbrot PES 3 ARGS ${arg} OK none
    EXPECT_STDOUT "(^|\n)listing3_mandelbrot: OK on 3 PEs, checksum 2895f11b758190a5\n")
endforeach()
# The contexts paper's Mandelbrot with threads (section 5.1), every variant: 1 is the default context
# shared by the threads, 2-4 a context per thread; the simulated runs' checksum.
foreach(v 1 2 3 4 5)
  shmemsim_emulate_test(mandel_threads_v${v}_t3 PROGRAM mandel_threads PES 2 OK none
    ARGS -v ${v} -t 3 -w 64 -h 32 -c 2 -i 200
    EXPECT_STDOUT "(^|\n)mandel_threads: variant ${v} threads 3 checksum 54784708 time_us [0-9]+ OK\n")
endforeach()
shmemsim_emulate_test(mandel_threads_points_v1 PROGRAM mandel_threads PES 3 OK none
  ARGS -v 1 -t 3 -w 64 -h 32 -i 200 -j 7
  EXPECT_STDOUT "(^|\n)mandel_threads: variant 1 threads 3 checksum 54784708 time_us [0-9]+ OK\n")
shmemsim_emulate_error_test(mandel_threads_bad_region PROGRAM mandel_threads PES 1 ARGS -r 1,0,0,1 EXPECT_STATUS 2
  EXPECT_STDERR "mandel_threads: -r X0,X1,Y0,Y1 with X0 < X1 and Y0 < Y1 \\(got '1,0,0,1'\\)")
# The NAS-IS-like sort of Figure 6 with full verification, both variants.
foreach(v base ctx)
  shmemsim_emulate_test(nas_is_${v} PROGRAM nas_is PES 3 ARGS -c S -i 3 -v ${v} OK none
    EXPECT_STDOUT "(^|\n)nas_is: class S, 3 PEs, variant ${v}, 3 iterations: time_us [0-9]+, Mkeys/s [0-9.]+, verification OK\n")
endforeach()
shmemsim_emulate_error_test(nas_is_bad_class PROGRAM nas_is PES 2 ARGS -c Q EXPECT_STATUS 2
  EXPECT_STDERR "nas_is: -c: class must be S, W, A, B or C")
shmemsim_emulate_test(listing4_intsort_fadd PROGRAM listing4_intsort PES 4 ARGS fadd OK none
  EXPECT_STDOUT "(^|\n)listing4_intsort: OK on 4 PEs \\(fadd\\)\n")

# ------------------------------------------------------------------ OpenSHMEM 1.5 conformance (conf_*)
foreach(prog conf_c11_rma conf_c11_amo conf_c11_p2p conf_c11_coll conf_zero conf_memory conf_cxx conf_api)
  shmemsim_emulate_test(${prog} PES 2)
endforeach()
shmemsim_emulate_test(conf_c11_coll_np3 PROGRAM conf_c11_coll PES 3)
shmemsim_emulate_test(conf_memory_align1g PROGRAM conf_memory PES 2 ARGS 1073741824
  RUN_OPTIONS --set job.symmetric_heap=3GiB EXPECT_STDOUT "(^|\n)aligned to 1073741824 bytes\n")
shmemsim_emulate_error_test(conf_memory_badalign PROGRAM conf_memory PES 2 ARGS badalign EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmem_align: alignment 48 is not a power of two")
# One PE per host: SHMEM_TEAM_SHARED and shmem_ptr reach the caller only, as in the simulator with
# one PE per node.
shmemsim_emulate_test(conf_team_ptr PES 2 EXPECT_STDOUT "(^|\n)PE 0 reaches 1 of 2 PEs")

# ------------------------------------------------------------------ OpenSHMEM 1.6 additions (spec16_*)
foreach(prog spec16_ibrma spec16_sync spec16_cxx)
  shmemsim_emulate_test(${prog} PES 2)
endforeach()
shmemsim_emulate_test(spec16_scan PES 4)
shmemsim_emulate_error_test(spec16_ibrma_badstride PROGRAM spec16_ibrma PES 2 ARGS badstride EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmem_int_ibput: strides dst 1 and sst 2 must be at least bsize 2[^\n]*")
shmemsim_emulate_error_test(spec16_sync_badmask PROGRAM spec16_sync PES 2 ARGS badmask EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmem_ctx_session_start: config_mask 6 has bits[^\n]*")

# ------------------------------------------------------------------ tasks and requests from threads
foreach(design offload contexts)
  shmemsim_emulate_test(async_when_${design} PROGRAM async_when PES 3
    RUN_OPTIONS --set job.async.runtime=${design} --set job.async.workers=3)
endforeach()
shmemsim_emulate_test(nb_threads PES 3)
# Few counters: every request still completes with its data; a request past max_cts shares the
# oldest open request's slot, as in the simulator (one ContextTable: the same notice line).
shmemsim_emulate_test(nb_threads_few_counters PROGRAM nb_threads PES 3 RUN_OPTIONS --set platform.nic.limits.max_cts=6
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a request shares the completion counter of an earlier request: max_cts \\(6\\) reached\n")
shmemsim_emulate_test(nb_rma_no_counters PROGRAM nb_rma PES 2 ARGS many RUN_OPTIONS --set platform.nic.limits.max_cts=8
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a request shares the completion counter of an earlier request: max_cts \\(8\\) reached\n")
# No counter left for requests (the runtime keeps 2): they count on the default context's.
shmemsim_emulate_test(nb_rma_semantics_no_counters PROGRAM nb_rma PES 2 ARGS semantics
  RUN_OPTIONS --set platform.nic.limits.max_cts=2
  EXPECT_STDOUT "(^|\n)nb_rma: request put: request complete right after quiet: yes\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a request shares the default context's completion counter: max_cts \\(2\\) reached\n")

# A request never waited for is completed by shmem_finalize, with one line; shmemx_abort ends every PE.
shmemsim_emulate_test(nb_rma_leak PROGRAM nb_rma PES 2 ARGS leak
  EXPECT_STDOUT "(^|\n)nb_rma: leak: target 1 after finalize\n"
  EXPECT_STDERR "(^|\n)shmemsim: PE 0: shmem_finalize: 1 request was never waited for or tested to completion \\(completed now\\): #[0-9]+ shmemx_int_get_req\n")
shmemsim_emulate_error_test(nb_rma_abort PROGRAM nb_rma PES 3 ARGS abort EXPECT_STATUS 5
  EXPECT_STDERR "(^|\n)shmemsim: PE 2: shmemx_abort\\(5\\): ending every PE\n")
# The worker count from the environment wins over the scenario's.
shmemsim_emulate_test(async_seed_env_workers PROGRAM async_seed PES 2 ENV SHMEM_ASYNC_WORKERS=7 RUN_OPTIONS --set job.async.workers=3
  EXPECT_STDOUT "(^|\n)async_seed: offload runtime, 7 workers")

# ------------------------------------------------------------------ context exhaustion: every policy
# The simulated tests' keys and counts (ctx_limits_share is in CMakeLists.txt), the same notice lines.
shmemsim_emulate_test(ctx_limits_fail PROGRAM ctx_limits PES 2 ARGS 6 RUN_OPTIONS --set platform.nic.limits.max_cts=3
  EXPECT_STDOUT "(^|\n)ctx_limits: 1 of 6 contexts usable\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: a context was refused \\(SHMEM_CTX_INVALID\\): max_cts \\(3\\) reached\n"
                "(^|\n)shmemsim-run: PE 1: a context was refused")
shmemsim_emulate_test(ctx_limits_share_md PROGRAM ctx_limits PES 2 ARGS 6
  RUN_OPTIONS --set platform.nic.limits.max_mds=2 --set job.contexts.on_exhaustion=share
  EXPECT_STDOUT "(^|\n)ctx_limits: 6 of 6 contexts usable\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 1: context 2 shares the default context's resources: max_mds \\(2\\) reached\n")
shmemsim_emulate_test(ctx_limits_round_robin PROGRAM ctx_limits PES 3 ARGS 7
  RUN_OPTIONS --set platform.nic.limits.max_cts=4 --set job.contexts.on_exhaustion=round_robin
  EXPECT_STDOUT "(^|\n)ctx_limits: 7 of 7 contexts usable\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 2: context 3 shares context 1's resources: max_cts \\(4\\) reached\n")
shmemsim_emulate_test(ctx_limits_round_robin_default PROGRAM ctx_limits PES 2 ARGS 4
  RUN_OPTIONS --set platform.nic.limits.max_cts=2 --set job.contexts.on_exhaustion=round_robin
  EXPECT_STDOUT "(^|\n)ctx_limits: 4 of 4 contexts usable\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: context 1 shares the default context's resources: max_cts \\(2\\) reached\n")
shmemsim_emulate_test(ctx_limits_keep_private PROGRAM ctx_limits PES 2 ARGS 6
  RUN_OPTIONS --set platform.nic.limits.max_cts=4 --set job.contexts.on_exhaustion=keep_private
  EXPECT_STDOUT "(^|\n)ctx_limits: 6 of 6 contexts usable\n"
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0: context 2 shares the default context's resources: not SHMEM_CTX_PRIVATE \\(contexts.on_exhaustion keep_private\\)\n")
shmemsim_emulate_test(contexts_split PROGRAM contexts PES 2 RUN_OPTIONS --set job.contexts.mapping=split)
shmemsim_emulate_test(contexts_limit_md PROGRAM contexts PES 2 ARGS limit RUN_OPTIONS --set platform.nic.limits.max_mds=3
  EXPECT_STDOUT "(^|\n)contexts: created [0-9]+ contexts before exhaustion")

# ------------------------------------------------------------------ misuse: status 2, the simulator's one line
# errors.c's twelve cases, as the simulated tests (CMakeLists.txt's _err_cases) check them. before_init
# is misused by both PEs at once: separate processes may both print their line before the job ends.
foreach(c ${_err_cases})
  string(REPLACE "@" ";" parts "${c}")
  list(GET parts 0 what)
  list(GET parts 1 pe)
  list(GET parts 2 regex)
  list(LENGTH parts nparts)
  set(opts "")
  if(nparts GREATER 3)
    list(GET parts 3 opts)
    string(REPLACE "," ";" opts "${opts}")
  endif()
  if(what STREQUAL "before_init")
    shmemsim_emulate_error_test(error_${what} PROGRAM errors PES 2 ARGS ${what} RUN_OPTIONS ${opts} EXPECT_STATUS 2
      EXPECT_STDERR "^shmemsim-run: PE ${pe}: ${regex}[^\n]*\n(shmemsim-run: PE ${pe}: ${regex}[^\n]*\n)?$")
  else()
    shmemsim_emulate_error_test(error_${what} PROGRAM errors PES 2 ARGS ${what} RUN_OPTIONS ${opts} EXPECT_STATUS 2
      STDERR_LINES 1 EXPECT_STDERR "^shmemsim-run: PE ${pe}: ${regex}[^\n]*\n$")
  endif()
endforeach()
foreach(c "bad_sig_op@shmem_long_put_signal: invalid sig_op 7" "bad_cmp@shmem_int_wait_until_all: invalid comparison operator cmp 9"
          "lock_not_symmetric@shmem_set_lock: lock 0x[0-9a-f]+ [^\n]*not symmetric")
  string(REPLACE "@" ";" parts "${c}")
  list(GET parts 0 what)
  list(GET parts 1 regex)
  shmemsim_emulate_error_test(sig_error_${what} PROGRAM sig_errors PES 2 ARGS ${what} EXPECT_STATUS 2
    EACH_PE "shmemsim-run: PE [01]: ${regex}[^\n]*")
endforeach()
foreach(c "destroy_world@shmem_team_destroy: SHMEM_TEAM_WORLD is a predefined team"
          "bad_root@shmem_long_broadcast: PE_root 2 is not a PE of the team"
          "not_in_set@shmem_barrier: the calling PE 1 is not in the active set"
          "bad_stride@shmem_sync: logPE_stride 31 is out of range"
          "psync_local@shmem_sync: pSync 0x[0-9a-f]+ [^\n]*not symmetric"
          "destroyed_team@shmem_team_my_pe: team 0x[0-9a-f]+ is not a team of this PE")
  string(REPLACE "@" ";" parts "${c}")
  list(GET parts 0 what)
  list(GET parts 1 regex)
  shmemsim_emulate_error_test(coll_error_${what} PROGRAM coll_errors PES 2 ARGS ${what} EXPECT_STATUS 2 STDERR_LINES 1
    EXPECT_STDERR "^shmemsim-run: PE 1: ${regex}[^\n]*\n$")
endforeach()
shmemsim_emulate_error_test(aset_seed_dup PROGRAM aset_seed PES 2 ARGS dup EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmemx_create_generic_aset: generic set of 2 PEs: PE 0 appears twice[^\n]*")
shmemsim_emulate_error_test(nbc_order_busy PROGRAM nbc_order PES 2 ARGS busy EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmemx_barrier_aset_req: pSync 0x[0-9a-f]+ is in use by an outstanding non-blocking collective of this PE[^\n]*")
shmemsim_emulate_error_test(nbc_order_delete PROGRAM nbc_order PES 2 ARGS delete EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmemx_delete_aset: 1 non-blocking collective\\(s\\) on the set have not completed[^\n]*")
# The mismatch is found by the first call that sees both collectives: the wait in a simulation, often
# the start already in a real run, where the other PE's message may have come first.
shmemsim_emulate_error_test(nbc_order_mismatch PROGRAM nbc_order PES 2 ARGS mismatch EXPECT_STATUS 2
  EACH_PE "shmemsim-run: PE [01]: shmemx_(wait_request|[a-z0-9_]+_aset_req): non-blocking [a-z]+ #[01] on an active set of 2 PEs \\(started by shmemx_[a-z0-9_]+_req, pSync 0x[0-9a-f]+\\): the other members started a different collective as their #[01] on the set \\(non-blocking collectives must be called in the same order on every PE of the set\\)")
# AsyncSHMEM's misuse (a task that can never run is a deadlock: status 3 after the stall timeout).
foreach(c "outside@1@shmemx_task: called outside shmemx_worker_init"
          "twice@2@shmemx_satisfy_promise: promise 0x[0-9a-f]+ is already satisfied"
          "scope@1@shmemx_task_scope_end: no task scope is open"
          "open@1@a task returned with a task scope still open"
          "thread@1@shmemx_task: called by a thread that is no worker of shmemx_worker_init")
  string(REPLACE "@" ";" parts "${c}")
  list(GET parts 0 what)
  list(GET parts 1 n)
  list(GET parts 2 regex)
  shmemsim_emulate_error_test(async_err_${what} PROGRAM async_errors PES ${n} ARGS ${what} EXPECT_STATUS 2
    EXPECT_STDERR "${regex}" REJECT_STDOUT "no error")
endforeach()
shmemsim_emulate_error_test(async_err_env PROGRAM async_errors PES 1 ENV SHMEM_ASYNC_RUNTIME=fibers EXPECT_STATUS 2
  EXPECT_STDERR "shmemx_worker_init: SHMEM_ASYNC_RUNTIME='fibers' is not a runtime design \\(offload or contexts\\)"
  REJECT_STDOUT "no error")
shmemsim_emulate_error_test(async_err_never PROGRAM async_errors PES 2 ARGS never EXPECT_STATUS 3
  RUN_OPTIONS --set emulator.stall_timeout=2s EXPECT_STDERR "(^|\n)shmemsim-run: deadlock: no PE progressed for 2 s"
  REJECT_STDOUT "no error")

# ------------------------------------------------------------------ deadlocks and ends
# The emulator knows a deadlock by its watchdog only (emulator.stall_timeout): it names where each
# PE's threads are -- in which library routine, or in the program's own code -- not what they wait
# for (no interposed pthreads or NIC model to ask, docs/emulator.md).
shmemsim_emulate_error_test(thread_deadlock PROGRAM thread_deadlock PES 1 EXPECT_STATUS 3
  RUN_OPTIONS --set emulator.stall_timeout=2s
  EXPECT_STDERR "(^|\n)shmemsim-run: deadlock: no PE progressed for 2 s \\(emulator.stall_timeout\\)\n"
                "(^|\n)shmemsim-run: PE 0 is blocked in the program's own code \\(no thread in the library\\)\n")
shmemsim_emulate_error_test(deadlock_heap PROGRAM deadlock PES 2 ARGS heap EXPECT_STATUS 3
  RUN_OPTIONS --set emulator.stall_timeout=2s
  EXPECT_STDERR "(^|\n)shmemsim-run: PE 0 waits in shmem_int_wait_until\n")
# A PE that exits with a non-zero status while the others still run ends the emulated job with that
# status at once (the simulator lets the others run on into a deadlock, status 3: docs/emulator.md).
shmemsim_emulate_error_test(deadlock_exit PROGRAM deadlock PES 3 ARGS exit EXPECT_STATUS 5 STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE 1 exited with status 5 while other PEs were running: the job ends\n$")
shmemsim_emulate_error_test(omp_deadlock PROGRAM omp_deadlock PES 2 EXPECT_STATUS 3 ENV OMP_NUM_THREADS=3
  RUN_OPTIONS --set emulator.stall_timeout=2s
  EXPECT_STDERR "(^|\n)shmemsim-run: deadlock: no PE progressed for 2 s")
# exit() inside a parallel region ends the PE and its team (both PEs here, within the second the
# launcher waits for the others after a first non-zero status).
shmemsim_program_test(emu_omp_exit PROGRAM omp_exit PES 2 ENV OMP_NUM_THREADS=3 RUN_OPTIONS ${SHMEMSIM_EMU_OPTIONS} WALL_LIMIT 60
  EXPECT_STATUS 5 EXPECT_STDOUT "(^|\n)omp_exit: PE 1 exits inside a parallel region\n"
  REJECT_STDOUT "not reached" REJECT_STDERR "deadlock" ${NO_CRASH})
shmemsim_emulate_error_test(crash_thread PROGRAM crash PES 2 ARGS thread EXPECT_STATUS 139 CRASH STDERR_LINES 1
  EXPECT_STDERR "^shmemsim-run: PE 1 \\(thread 1\\) crashed: SIGSEGV \\(invalid memory access\\)\n$")

# ------------------------------------------------------------------ the other families
foreach(spec "getopt_args:3" "environ:3" "generic_c11:2" "generic_cxx:2" "prof_pshmem:2" "determinism:4"
             "conv_mpp:3" "omp_cxx:2" "coll_basic_ring:2")
  string(REPLACE ":" ";" parts "${spec}")
  list(GET parts 0 prog)
  list(GET parts 1 n)
  set(env "")
  if(prog STREQUAL "environ")
    set(env SHMEMSIM_TEST_VAR=launcher)
  elseif(prog STREQUAL "omp_cxx")
    set(env OMP_NUM_THREADS=3)
  endif()
  set(args "")
  if(prog STREQUAL "getopt_args")
    set(args -n 5 -v -s hello extra1 extra2)
  endif()
  if(prog STREQUAL "coll_basic_ring")
    shmemsim_emulate_test(${prog} PROGRAM coll_basic PES ${n} RUN_OPTIONS --set job.collectives.reduce=ring)
  else()
    shmemsim_emulate_test(${prog} PES ${n} ARGS ${args} ENV ${env})
  endif()
endforeach()
shmemsim_emulate_test(sweep_result PES 2 ARGS -n 3 -s 128 ENV SWEEP_TAG=x1 OK none
  EXPECT_STDOUT "(^|\n)RESULT time_us=[0-9.]+ n=3 size=128 pes=2 tag=x1\n")
# The symmetric heap's size from the environment, and its end.
shmemsim_emulate_test(conv_heap_1G PROGRAM conv_heap PES 2 ARGS 1048576000 sparse ENV SHMEM_SYMMETRIC_SIZE=1G)
shmemsim_emulate_test(conv_heap_512m_full PROGRAM conv_heap PES 2 ARGS 536870913 sparse null ENV SHMEM_SYMMETRIC_SIZE=512m
  EXPECT_STDERR "PE 0: shmem_malloc: out of symmetric heap: 536870913 bytes requested")
# SHMEM_VERSION says what the PEs run on: emulated processes, not a simulated cluster.
shmemsim_emulate_test(conv_env_version PROGRAM conv_heap PES 2 ARGS 4096 all ENV SHMEM_VERSION=1
  EXPECT_STDOUT "^shmemsim [0-9.]+: OpenSHMEM 1\\.5 library on emulated processes \\(shmemsim-run --emulate\\), 2 PEs\n")
# The launcher's conventions with --emulate: -x variables reach every PE; repeated and nested
# shmem_init / shmem_finalize.
shmemsim_emulate_test(launch_conv_env PROGRAM launch_conv PES 2 ARGS env LC_A LC_UNSET RUN_OPTIONS -x LC_A=one
  EXPECT_STDOUT "(^|\n)launch_conv: PE 1 LC_A=one\n" "(^|\n)launch_conv: PE 0 LC_UNSET=\\(unset\\)\n")
shmemsim_emulate_test(launch_conv_reinit PROGRAM launch_conv PES 2 ARGS reinit 16 4096)
shmemsim_emulate_test(launch_conv_nested PROGRAM launch_conv PES 3 ARGS nested)
# A traced run of threads (each PE's trace written under its lock by every thread, merged at the end).
shmemsim_emulate_test(thread_basic_traced PROGRAM thread_basic PES 2
  RUN_OPTIONS --out ${CMAKE_CURRENT_BINARY_DIR}/out/prog_emu_thread_basic_traced_np2/run)
