// The scenario's `traffic` list as a workload of the simulated platform: one TrafficPattern per entry,
// set up on every endpoint, started as actors, its data checked after the run.
#pragma once

#include "run/Simulated.hpp"
#include "run/Traffic.hpp"

#include <memory>
#include <vector>

namespace shmemsim::run {

class TrafficWorkload final : public Workload {
public:
  explicit TrafficWorkload(const scenarios::Scenario& sc) : sc_(sc) {}

  void setup(Models& models, traces::Recorder* recorder) override;
  void start() override;
  int verdict(std::vector<std::string>& errors) override;
  std::string blocked_parties() const override { return "actor"; }
  void summarize(nlohmann::json& summary) override;

private:
  /// bernoulli: offered and accepted load, the fabric latency of the packets of the window.
  nlohmann::json open_loop_summary(const TrafficPattern& p) const;

  const scenarios::Scenario& sc_;
  Models* models_ = nullptr;
  std::vector<std::unique_ptr<TrafficPattern>> patterns_;
};

} // namespace shmemsim::run
