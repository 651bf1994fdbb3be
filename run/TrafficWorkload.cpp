#include "run/TrafficWorkload.hpp"

#include <new>
#include <stdexcept>

namespace shmemsim::run {

using namespace scenarios;

void TrafficWorkload::setup(Models& models, traces::Recorder* /*recorder: the models publish*/)
{
  models_ = &models;
  try {
    for (std::size_t i = 0; i < sc_.traffic.size(); ++i)
      patterns_.push_back(std::make_unique<TrafficPattern>(*models.net, sc_.traffic[i], static_cast<int>(i), sc_.seed));
  } catch (const std::runtime_error& e) {
    throw ScenarioError(sc_.source + ": " + e.what());
  } catch (const std::bad_alloc&) {
    const auto i = patterns_.size();
    throw ScenarioError(sc_.source + ": traffic[" + std::to_string(i) + "] (" + to_string(sc_.traffic[i].pattern) +
                        "): not enough memory for its buffers (traffic.size " + std::to_string(sc_.traffic[i].size) +
                        " B, traffic.window " + std::to_string(sc_.traffic[i].window) + "); lower them");
  }
}

void TrafficWorkload::start()
{
  for (auto& p : patterns_)
    p->start();
}

int TrafficWorkload::verdict(std::vector<std::string>& errors)
{
  int verdict = kExitOk;
  for (std::size_t i = 0; i < patterns_.size(); ++i) {
    TrafficPattern& p = *patterns_[i];
    p.verify();
    for (const std::string& f : p.result().failures) {
      errors.push_back("traffic[" + std::to_string(i) + "] " + to_string(p.params().pattern) + ": " + f);
      verdict = kExitCheckFailed;
    }
  }
  return verdict;
}

nlohmann::json TrafficWorkload::open_loop_summary(const TrafficPattern& p) const
{
  const sim::Fabric& fabric    = models_->net->fabric();
  const sim::PacketLatency& pl = fabric.latency();
  const sim::Histogram& h      = pl.latency();
  const double window_s        = ps_to_seconds(pl.until() - pl.from());
  const double link_Bps        = static_cast<double>(fabric.params().link_bandwidth) / 8.0;
  const double endpoints       = static_cast<double>(models_->net->endpoints());
  // Accepted throughput: wire bytes that arrived in the window, per endpoint, as a fraction of its link.
  const double accepted =
      window_s > 0 ? static_cast<double>(pl.accepted_bytes()) / (window_s * link_Bps * endpoints) : 0.0;
  return {{"offered_load", p.params().load},
          {"accepted_load", accepted},
          {"slot_s", ps_to_seconds(p.slot())},
          {"window_s", {ps_to_seconds(pl.from()), ps_to_seconds(pl.until())}},
          {"packets_measured", h.count()},
          {"latency_mean_s", h.mean() * 1e-12},
          {"latency_p50_s", ps_to_seconds(h.quantile(0.5))},
          {"latency_p99_s", ps_to_seconds(h.quantile(0.99))},
          {"latency_max_s", ps_to_seconds(h.max())}};
}

void TrafficWorkload::summarize(nlohmann::json& summary)
{
  nlohmann::json traffic = nlohmann::json::array();
  for (const auto& pattern : patterns_) {
    const TrafficPattern& p = *pattern;
    const TrafficResult& r  = p.result();
    const double span       = ps_to_seconds(r.end - r.start);
    nlohmann::json j        = {{"pattern", to_string(p.params().pattern)},
                               {"operations", r.operations},
                               {"bytes", r.bytes},
                               {"duration_s", span},
                               {"bandwidth_Bps", span > 0 ? static_cast<double>(r.bytes) / span : 0.0},
                               {"operation_rate", span > 0 ? static_cast<double>(r.operations) / span : 0.0},
                               {"verified", r.verified}};
    if (p.params().pattern == Pattern::PingPong)
      j["half_round_trip_s"] = r.half_rtt_s;
    if (!p.params().verify)
      j["verified"] = nullptr;
    if (p.params().injection == Injection::Bernoulli)
      j["open_loop"] = open_loop_summary(p);
    traffic.push_back(j);
  }
  summary["traffic"] = traffic;
}

} // namespace shmemsim::run
