// SHMEMSIM_OBSERVE: how every layer of both backends calls its observer (NetworkObserver.hpp,
// PortalsObserver.hpp, ShmemObserver.hpp). With no observer attached a call site costs one
// predictable branch; a build with -DSHMEMSIM_OBSERVERS=OFF compiles the call sites out.
#pragma once

#ifndef SHMEMSIM_OBSERVERS
#define SHMEMSIM_OBSERVERS 1
#endif

#if SHMEMSIM_OBSERVERS
/// Call obs->CALL if an observer is attached: SHMEMSIM_OBSERVE(obs_, msg_done(now, id)).
#define SHMEMSIM_OBSERVE(obs, ...)                                                                                     \
  do {                                                                                                                 \
    if ((obs) != nullptr) [[unlikely]]                                                                                 \
      (obs)->__VA_ARGS__;                                                                                              \
  } while (0)
#else
#define SHMEMSIM_OBSERVE(obs, ...)                                                                                     \
  do {                                                                                                                 \
  } while (0)
#endif
