# Signals, multi-element point-to-point synchronization, locks, deprecated routines, profiling
# (pshmem_ entry points): included by shmem_front/CMakeLists.txt into libshmemsim.
set(SHMEMSIM_SIGNAL_LOCK_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/sig_signal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sig_p2p_vector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/deprecated.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profiling.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spec16.cpp) # OpenSHMEM 1.6 additions (shmemsim/shmem_spec16.h)
