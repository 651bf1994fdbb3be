// What happened to a SHMEM context: the vocabulary of the front end's observer
// (base/ShmemObserver.hpp), of the trace format (traces/Trace.hpp: `ctx` lines) and of
// the reports that read it. On floor 0 so that the trace format need not include the front end.
#pragma once

#include <cstdint>
#include <string_view>

namespace shmemsim {

/// What happened to a context (ShmemObserver::ctx_event; a `ctx` line of the compact trace).
enum class CtxEvent : std::uint8_t {
  Create,  ///< created, with Portals resources of its own
  Destroy, ///< destroyed
  Refuse,  ///< not created: a resource limit (contexts.on_exhaustion fail)
  Share,   ///< created over the default context's resources (contexts.on_exhaustion share)
};

inline constexpr CtxEvent kCtxEvents[] = {CtxEvent::Create, CtxEvent::Destroy, CtxEvent::Refuse, CtxEvent::Share};

/// The word a trace writes for it: "create", "destroy", "refuse", "share".
constexpr const char* to_string(CtxEvent e)
{
  switch (e) {
    case CtxEvent::Create:
      return "create";
    case CtxEvent::Destroy:
      return "destroy";
    case CtxEvent::Refuse:
      return "refuse";
    case CtxEvent::Share:
      return "share";
  }
  return "?";
}

/// The event a trace's word names; false if it names none.
constexpr bool parse_ctx_event(std::string_view word, CtxEvent* out)
{
  for (CtxEvent e : kCtxEvents)
    if (word == to_string(e)) {
      *out = e;
      return true;
    }
  return false;
}

} // namespace shmemsim
