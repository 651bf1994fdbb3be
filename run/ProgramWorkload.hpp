// An OpenSHMEM program as a workload of the simulated platform: the PE runtime (the runtime seam
// on SimGrid) and the Portals transport (the transport seam) over the built models, one actor per
// PE running its private copy of the program (loaded beforehand: run/ProgramLoading.hpp).
#pragma once

#include "run/Simulated.hpp"
#include "shmem_front/interpose/hooks.h"
#include "shmem_front/runtime/PeRuntime.hpp"
#include "shmem_front/transport/PortalsTransport.hpp"

#include <memory>
#include <vector>

namespace shmemsim::run {

/// What was loaded for a simulated program run: the PEs (program copies, heaps) and the
/// interposition library's entry points.
struct LoadedProgram {
  std::vector<front::PeProcess> pes;
  front::WorkCounter counter;
  void (*install_hooks)(const shmemsim_hooks*) = nullptr;
  bool tag_output                              = false; ///< prefix every line of a PE's output with its number
  front::Pthreads pthreads; ///< the interposition library's pthread_* (the PEs' simulated threads)
};

class ProgramWorkload final : public Workload {
public:
  ProgramWorkload(const scenarios::Scenario& sc, LoadedProgram& program) : sc_(sc), program_(program) {}

  void describe(traces::Recorder& recorder) override;
  void setup(Models& models, traces::Recorder* recorder) override;
  void start() override;
  int verdict(std::vector<std::string>& errors) override;
  std::string blocked_parties() const override;
  void explain_stop(sim::RunStatus status, std::vector<std::string>& lines) override;
  void summarize(nlohmann::json& summary) override;

private:
  const scenarios::Scenario& sc_;
  LoadedProgram& program_;
  std::unique_ptr<front::PeRuntime> runtime_;
  std::unique_ptr<front::PortalsTransport> transport_;
  /// Where each PE's threads run on its node (set_cache_lines): its first core and how many.
  std::vector<int> first_core_, core_count_;

  /// Give the transport the nodes' shared cache lines and the calling thread's core.
  void set_cache_lines(front::PortalsTransport& transport, front::PeRuntime& runtime, const Models& models);
};

} // namespace shmemsim::run
