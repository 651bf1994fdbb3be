// How OpenSHMEM contexts map onto the NIC's resources (job.contexts.* keys): the mapping, the
// policy when the NIC's counting events or memory descriptors run out, and the contexts paper's
// PTL_MD_INDEPENDENT. Plain data with its declared keys (base/Params.hpp): the mapping and the MD
// option are the transports' under the seam (the Portals transport, shmem_front/transport, and the
// emulator's, shmem_front/emulator), the policy is the context table's above it (ContextTable.hpp,
// told through Runtime::contexts_on_exhaustion). Its enums are the seam's (Seams.hpp).
#pragma once

#include "shmem_front/lib/Seams.hpp" // CtxMapping, OnExhaustion
#include "base/Params.hpp"

namespace shmemsim::front {

struct ContextParams {
  CtxMapping mapping         = CtxMapping::Lean;   ///< job.contexts.mapping
  OnExhaustion on_exhaustion = OnExhaustion::Fail; ///< job.contexts.on_exhaustion
  /// job.contexts.independent_mds: a created context's MDs carry the contexts paper's proposed
  /// PTL_MD_INDEPENDENT (an injection queue of their own while the NIC has spare ones).
  bool independent_mds = true;

  /// The job.contexts.* keys.
  static const ParamTable<ContextParams>& keys();
};

inline const ParamTable<ContextParams>& ContextParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<ContextParams> table = {
      {.path    = "job.contexts.mapping",
       .kind    = K::Enum,
       .doc     = "Contexts on Portals: lean (the paper's: one CT + one MD per context) or split (a put and a get "
                  "CT/MD pair per context).",
       .field   = field(&ContextParams::mapping),
       .choices = {"lean", "split"},
       .noun    = "context mapping"},
      {.path  = "job.contexts.independent_mds",
       .kind  = K::Bool,
       .doc   = "Whether a created context's MDs carry PTL_MD_INDEPENDENT, the contexts paper's proposed MD option "
                "(section 6.2.1): the NIC then gives each such MD an injection queue of its own while it has spare "
                "ones (platform.nic.injection_queues), so contexts do not queue behind each other; false: every MD "
                "shares the queues round-robin, as Portals 4 does today. The default context never has one.",
       .field = field(&ContextParams::independent_mds)},
      {.path    = "job.contexts.on_exhaustion",
       .kind    = K::Enum,
       .doc     = "When the NIC's CTs/MDs run out (the transport keeps 1 CT for its target counter and the default "
                  "context's CT + MD, lean, or 2 CTs + 2 MDs, split: lean, a PE can create max_cts - 2 and max_mds - 1 "
                  "contexts, split min((max_cts - 3) / 2, (max_mds - 2) / 2)): fail (shmem_ctx_create returns "
                  "non-zero and SHMEM_CTX_INVALID), share (the new context shares the default context's resources "
                  "and completion), round_robin (it shares those of the PE's created contexts that still own "
                  "resources, in turn; the default context's if there is none) or keep_private (contexts created "
                  "without SHMEM_CTX_PRIVATE always share the default context's, leaving the NIC's resources to "
                  "SHMEM_CTX_PRIVATE ones, which get their own while they last, then share the default's). The "
                  "first refused or shared context of a PE prints one notice line naming why.",
       .field   = field(&ContextParams::on_exhaustion),
       .choices = {"fail", "share", "round_robin", "keep_private"},
       .noun    = "exhaustion policy"},
  };
  return table;
}

} // namespace shmemsim::front
