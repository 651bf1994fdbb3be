// The scenario's `traffic` list as a workload of the run builder: one TrafficPattern per entry,
// set up on every endpoint, started as actors, its data checked after the run.
#pragma once

#include "scenarios/RunBuilder.hpp"
#include "scenarios/Traffic.hpp"

#include <memory>
#include <vector>

namespace shmemsim::scenarios {

class TrafficWorkload final : public Workload {
public:
  explicit TrafficWorkload(const Scenario& sc) : sc_(sc) {}

  void setup(Platform& platform, traces::Recorder* recorder) override;
  void start() override;
  int verdict(std::vector<std::string>& errors) override;
  std::string blocked_parties() const override { return "actor"; }
  void summarize(nlohmann::json& summary) override;

private:
  const Scenario& sc_;
  std::vector<std::unique_ptr<TrafficPattern>> patterns_;
};

} // namespace shmemsim::scenarios
