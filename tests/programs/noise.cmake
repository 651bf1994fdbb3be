# ================================================================== operating-system noise (issue 25)
# A symmetric program that livelocks in an exact machine: two PEs swap into the same words in
# lockstep. qdr-16 has Linux's timer-interrupt noise (platform.noise): one PE is delayed now and
# then and both finish; the same seed gives byte-identical runs (COMPARE_RUNS). On qdr-16 itself
# (NO_SCENARIO), whose fabric has no random element, noise is the only thing that can break the
# lockstep (unordered.json's switch jitter would break it too). Whether the exact machine stays in
# lockstep depends on how the progress thread's costs compare: with qdr-16's measured ones (ACKs and
# replies far cheaper than requests) the two PEs' swaps drift apart and the run ends without noise
# too; with equal costs for requests, ACKs and replies (500 ns each) they alternate forever, which
# both tests use.
shmemsim_program(noise_livelock SOURCES noise_livelock/noise_livelock.c)
set(LOCKSTEP_COSTS --set platform.nic.recv_overhead=500ns --set platform.nic.ack_overhead=500ns
                   --set platform.nic.reply_overhead=500ns)
shmemsim_program_test(noise_livelock PROGRAM noise_livelock PES 2 NO_SCENARIO COMPARE_RUNS RUN_OPTIONS ${LOCKSTEP_COSTS}
  EXPECT_STDOUT "(^|\n)noise_livelock: rounds per PE: [0-9]+ [0-9]+\n" "(^|\n)noise_livelock: OK on 2 PEs\n"
  REJECT_STDOUT "FAIL" REJECT_STDERR ${NO_CRASH} WALL_LIMIT 60)
# Without noise the PEs alternate forever: the simulated-time limit ends the run (status 4).
shmemsim_program_test(noise_livelock_off PROGRAM noise_livelock PES 2 NO_SCENARIO
  RUN_OPTIONS ${LOCKSTEP_COSTS} --set platform.noise.enabled=false --sim-time-limit 20ms
  EXPECT_STATUS 4 EXPECT_STDERR "simulated-time limit of 20ms reached"
  REJECT_STDOUT "noise_livelock: OK" REJECT_STDERR ${NO_CRASH} WALL_LIMIT 60)
