// The vocabulary of observer events that their readers match: declared once, here, for the models
// that publish them (through sim/Observer.hpp) and for the trace format and its analysis (through
// traces/Trace.hpp), which write and read them as words. Header-only, with no dependency: including
// it links nothing.
#pragma once

#include <cstdint>
#include <string_view>

namespace shmemsim::sim {

/// What happened to a context (Observer::ctx_event; a `ctx` line of the compact trace).
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

} // namespace shmemsim::sim
