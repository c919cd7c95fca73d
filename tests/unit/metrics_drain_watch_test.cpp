// The families an operator watches during a drain, fed as the warden feeds the registry: a
// real drain machine steps through a lifecycle hook's drain, each effect reaches the
// registry with the snapshot after its step, and then the published snapshot itself (a
// job count changes nothing but the snapshot). The registry's wall clock is fixed (the
// machine's 0 s is 2023-11-14T22:13:20Z, epoch second 1700000000), so every timestamp
// series has one exact value.
#include <catch2/catch.hpp>

#include <sstream>

#include "src/drain/warden_snapshot.hpp"
#include "src/telemetry/exposition_writer.hpp"
#include "src/telemetry/metrics_registry.hpp"
#include "tests/unit/gitlab_drain_config.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using lines = std::vector<std::string>;

constexpr auto wall_at_zero = std::chrono::system_clock::time_point{1700000000s};

class watched_drain {
 public:
  void at(duration now, const drain_event& event) {
    now_ = now;
    const auto effects = machine_.step(event, now);
    ++version_;
    for (const auto& effect : effects)
      registry.observe(effect, snapshot_of(machine_.state(), now, version_));
    registry.observe_snapshot(snapshot_of(machine_.state(), now, version_));  // as published
  }

  lines series(const std::string& family) const {
    std::istringstream text{write_exposition(registry.collect())};
    lines result;
    for (std::string line; std::getline(text, line);)
      if (line.starts_with(family + "{") || line.starts_with(family + " ")) result.push_back(line);
    return result;
  }

  metrics_registry registry{
      "1.2.3", wall_at_zero,
      [this] { return wall_at_zero + std::chrono::duration_cast<std::chrono::seconds>(now_); }};

 private:
  drain_machine machine_{testing::gitlab_config()};
  duration now_{0};
  std::uint64_t version_ = 0;
};

}  // namespace

TEST_CASE("jobs, the deadline and the hook's expiry are served while a drain runs", "[metrics]") {
  watched_drain drain;
  drain.at(0s, warden_started{});
  drain.at(0s, runner_spawned{100});
  CHECK(drain.series("runwarden_runner_jobs_known") == lines{"runwarden_runner_jobs_known 0"});
  drain.at(1s, runner_load_observed{3u});
  CHECK(drain.series("runwarden_runner_jobs_running") == lines{"runwarden_runner_jobs_running 3"});
  CHECK(drain.series("runwarden_runner_jobs_known") == lines{"runwarden_runner_jobs_known 1"});
  CHECK(drain.series("runwarden_drain_deadline_timestamp_seconds") ==
        lines{"runwarden_drain_deadline_timestamp_seconds 0"});
  drain.at(10s, lifecycle_action_pending{lifecycle_action{
                    .hook_name = "drain-hook", .heartbeat_timeout = 300s, .expires_at = 3610s}});
  CHECK(drain.series("runwarden_lifecycle_hook_expiry_timestamp_seconds") ==
        lines{"runwarden_lifecycle_hook_expiry_timestamp_seconds 1700003610"});
  CHECK(drain.series("runwarden_drain_deadline_timestamp_seconds") ==
        lines{"runwarden_drain_deadline_timestamp_seconds 1700003550"});
  CHECK(drain.series("runwarden_notifications_total")[0] ==
        "runwarden_notifications_total{event=\"drain_started\"} 1");
  drain.at(20s, runner_load_observed{0u});
  drain.at(30s, runner_exited{100, exit_status{}});
  CHECK(drain.series("runwarden_runner_jobs_known") == lines{"runwarden_runner_jobs_known 0"});
  drain.at(31s, lifecycle_action_completed{});
  CHECK(drain.series("runwarden_lifecycle_hook_expiry_timestamp_seconds") ==
        lines{"runwarden_lifecycle_hook_expiry_timestamp_seconds 0"});
  CHECK(drain.series("runwarden_drain_deadline_timestamp_seconds") ==
        lines{"runwarden_drain_deadline_timestamp_seconds 0"});
  CHECK(drain.series("runwarden_notifications_total") ==
        lines{"runwarden_notifications_total{event=\"drain_started\"} 1",
              "runwarden_notifications_total{event=\"gone\"} 1",
              "runwarden_notifications_total{event=\"unregistration_failing\"} 0",
              "runwarden_notifications_total{event=\"hook_expiring\"} 0",
              "runwarden_notifications_total{event=\"restart_budget_spent\"} 0"});
}
