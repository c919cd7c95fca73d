// The metrics registry, fed the way the warden feeds it: a real drain machine steps through
// events, and every effect goes to the registry with the snapshot taken after its step.
// Each case then compares whole families of the exposition text, so a series that appears,
// disappears or counts twice fails here; a fresh registry's whole text is pinned in
// tests/data/fresh_registry.prom, which promtool accepts as it stands.
#include <catch2/catch.hpp>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <iterator>
#include <sstream>

#include "src/drain/warden_snapshot.hpp"
#include "src/telemetry/exposition_writer.hpp"
#include "src/telemetry/metrics_registry.hpp"

#include "tests/unit/gitlab_drain_config.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using lines = std::vector<std::string>;

using testing::gitlab_config;

constexpr auto started_at = std::chrono::system_clock::time_point{1700000000s};

class fed_registry {
 public:
  explicit fed_registry(drain_config config = gitlab_config()) : machine_(config) {}

  // What the warden actor does with one event.
  void at(duration now, const drain_event& event) {
    const auto effects = machine_.step(event, now);
    ++version_;
    for (const auto& effect : effects)
      registry.observe(effect, snapshot_of(machine_.state(), now, version_));
  }

  void start_running(std::int64_t pid = 100) {
    at(0s, warden_started{});
    at(0s, runner_spawned{pid});
  }

  // The lines of one family's series, without its HELP and TYPE lines.
  lines series(const std::string& family) const {
    const auto families = registry.collect();
    std::istringstream text{write_exposition(families)};
    lines result;
    for (std::string line; std::getline(text, line);) {
      const bool same_family = line.starts_with(family + "{") || line.starts_with(family + " ") ||
                               line.starts_with(family + "_bucket{") ||
                               line.starts_with(family + "_sum ") ||
                               line.starts_with(family + "_count ");
      if (same_family) result.push_back(line);
    }
    return result;
  }

  metrics_registry registry{"1.2.3", started_at};

 private:
  drain_machine machine_;
  std::uint64_t version_ = 0;
};

runner_exited exited(std::int64_t pid, int code) { return {pid, exit_status{false, code}}; }
runner_exited killed(std::int64_t pid, int signal) { return {pid, exit_status{true, signal}}; }
shutdown_requested sigterm() { return {.source = trigger_source::signal_terminate}; }

lines exits_with(std::size_t index) {
  lines result;
  for (std::size_t at = 0; at < exit_label_count; ++at) {
    const auto& label = exit_labels()[at];
    result.push_back("runwarden_runner_exits_total{kind=\"" + std::string{label.kind} +
                     "\",value=\"" + std::string{label.value} + "\"} " + (at == index ? "1" : "0"));
  }
  return result;
}

}  // namespace

TEST_CASE("a fresh registry shows every series at zero, starting and not ready") {
  const metrics_registry registry{"1.2.3", started_at};
  const auto families = registry.collect();
  std::ifstream expected_file{RUNWARDEN_TEST_DATA_DIR "/fresh_registry.prom"};
  REQUIRE(expected_file);
  const std::string expected{std::istreambuf_iterator<char>{expected_file}, {}};
  CHECK(write_exposition(families) == expected);
  CHECK_FALSE(registry.current_readiness().ready);
}

TEST_CASE("state and readiness follow the warden: ready only while running") {
  fed_registry fed;
  fed.at(0s, warden_started{});
  CHECK_FALSE(fed.registry.current_readiness().ready);
  fed.at(0s, runner_spawned{100});
  CHECK(fed.registry.current_readiness().ready);
  CHECK(fed.series("runwarden_state") ==
        lines{"runwarden_state{state=\"starting\"} 0", "runwarden_state{state=\"running\"} 1",
              "runwarden_state{state=\"shutting_down\"} 0", "runwarden_state{state=\"gone\"} 0"});
  fed.at(5s, sigterm());
  const auto draining = fed.registry.current_readiness();
  CHECK_FALSE(draining.ready);
  CHECK(draining.status == warden_status::shutting_down);
  CHECK(draining.phase == drain_phase::draining);
  CHECK(fed.series("runwarden_drain_phase") ==
        lines{"runwarden_drain_phase{phase=\"none\"} 0",
              "runwarden_drain_phase{phase=\"waiting_for_runner\"} 0",
              "runwarden_drain_phase{phase=\"draining\"} 1",
              "runwarden_drain_phase{phase=\"forcing\"} 0",
              "runwarden_drain_phase{phase=\"killing\"} 0",
              "runwarden_drain_phase{phase=\"unregistering\"} 0",
              "runwarden_drain_phase{phase=\"completing\"} 0",
              "runwarden_drain_phase{phase=\"done\"} 0"});
}

TEST_CASE("a graceful drain counts its trigger, its signal, the exit and its duration") {
  fed_registry fed;
  fed.start_running();
  fed.at(10s, sigterm());
  fed.at(100s, exited(100, 0));
  CHECK(fed.series("runwarden_drains_total") ==
        lines{"runwarden_drains_total{trigger=\"sigterm\"} 1",
              "runwarden_drains_total{trigger=\"sigint\"} 0",
              "runwarden_drains_total{trigger=\"sigquit\"} 0",
              "runwarden_drains_total{trigger=\"control_api\"} 0",
              "runwarden_drains_total{trigger=\"cloud_lifecycle\"} 0",
              "runwarden_drains_total{trigger=\"idle_scale_in\"} 0",
              "runwarden_drains_total{trigger=\"spot_interruption\"} 0",
              "runwarden_drains_total{trigger=\"rebalance_recommendation\"} 0",
              "runwarden_drains_total{trigger=\"ec2_scheduled_maintenance\"} 0",
              "runwarden_drains_total{trigger=\"azure_preempt\"} 0",
              "runwarden_drains_total{trigger=\"azure_terminate\"} 0",
              "runwarden_drains_total{trigger=\"azure_reboot\"} 0",
              "runwarden_drains_total{trigger=\"azure_redeploy\"} 0",
              "runwarden_drains_total{trigger=\"gcp_preemption\"} 0",
              "runwarden_drains_total{trigger=\"gcp_host_maintenance\"} 0",
              "runwarden_drains_total{trigger=\"host\"} 0",
              "runwarden_drains_total{trigger=\"retirement\"} 0",
              "runwarden_drains_total{trigger=\"replacement\"} 0",
              "runwarden_drains_total{trigger=\"os_shutdown\"} 0"});
  CHECK(fed.series("runwarden_runner_signals_sent_total") ==
        lines{"runwarden_runner_signals_sent_total{purpose=\"graceful\"} 1",
              "runwarden_runner_signals_sent_total{purpose=\"forceful\"} 0",
              "runwarden_runner_signals_sent_total{purpose=\"kill\"} 0",
              "runwarden_runner_signals_sent_total{purpose=\"reload\"} 0"});
  CHECK(fed.series("runwarden_runner_exits_total") == exits_with(0));
  const auto durations = fed.series("runwarden_drain_duration_seconds");
  REQUIRE(durations.size() == drain_duration_bounds_seconds.size() + 3);
  CHECK(durations[4] == "runwarden_drain_duration_seconds_bucket{le=\"60\"} 0");
  CHECK(durations[5] == "runwarden_drain_duration_seconds_bucket{le=\"120\"} 1");
  CHECK(durations[15] == "runwarden_drain_duration_seconds_bucket{le=\"86400\"} 1");
  CHECK(durations[16] == "runwarden_drain_duration_seconds_bucket{le=\"+Inf\"} 1");
  CHECK(durations[17] == "runwarden_drain_duration_seconds_sum 90");
  CHECK(durations[18] == "runwarden_drain_duration_seconds_count 1");
  CHECK(fed.series("runwarden_state").back() == "runwarden_state{state=\"gone\"} 1");
  CHECK(fed.series("runwarden_drain_phase").back() == "runwarden_drain_phase{phase=\"done\"} 1");
}

TEST_CASE("an escalated drain counts every signal and the SIGKILL exit") {
  auto config = gitlab_config();
  config.drain_timeout = 60s;
  fed_registry fed{config};
  fed.start_running();
  fed.at(10s, shutdown_requested{.source = trigger_source::cloud_lifecycle});
  fed.at(70s, timer_fired{timer_kind::drain_deadline, 1});
  fed.at(80s, timer_fired{timer_kind::kill_timeout, 2});
  fed.at(80s, killed(100, SIGKILL));
  CHECK(fed.series("runwarden_runner_signals_sent_total") ==
        lines{"runwarden_runner_signals_sent_total{purpose=\"graceful\"} 1",
              "runwarden_runner_signals_sent_total{purpose=\"forceful\"} 1",
              "runwarden_runner_signals_sent_total{purpose=\"kill\"} 1",
              "runwarden_runner_signals_sent_total{purpose=\"reload\"} 0"});
  CHECK(fed.series("runwarden_drains_total")[4] ==
        "runwarden_drains_total{trigger=\"cloud_lifecycle\"} 1");
  CHECK(fed.series("runwarden_runner_exits_total") == exits_with(7));
  CHECK(fed.series("runwarden_drain_duration_seconds_sum") ==
        lines{"runwarden_drain_duration_seconds_sum 70"});
}

TEST_CASE("crashes count exits and restarts, a repeated effect of one step counts once") {
  fed_registry fed;
  fed.start_running();
  fed.at(10s, killed(100, SIGSEGV));
  fed.at(11s, timer_fired{timer_kind::restart_backoff, 1});
  fed.at(11s, runner_spawned{101});
  fed.at(20s, exited(101, 3));
  CHECK(fed.series("runwarden_runner_restarts_total") ==
        lines{"runwarden_runner_restarts_total 2"});
  auto expected = exits_with(8);
  expected[2] = "runwarden_runner_exits_total{kind=\"code\",value=\"other\"} 1";
  CHECK(fed.series("runwarden_runner_exits_total") == expected);
  CHECK(fed.series("runwarden_drain_duration_seconds_count") ==
        lines{"runwarden_drain_duration_seconds_count 0"});
  CHECK(fed.registry.current_readiness().ready);  // still running, backing off
}

TEST_CASE("a runner that cannot start counts a spawn error, no exit and no drain") {
  fed_registry fed;
  fed.at(0s, warden_started{});
  fed.at(0s, runner_spawn_failed{ENOENT, "no such file"});
  CHECK(fed.series("runwarden_errors_total") ==
        lines{"runwarden_errors_total{kind=\"runner_spawn\"} 1",
              "runwarden_errors_total{kind=\"drain\"} 0",
              "runwarden_errors_total{kind=\"http_request\"} 0"});
  CHECK(fed.series("runwarden_runner_exits_total") == exits_with(exit_label_count));
  CHECK(fed.series("runwarden_state").back() == "runwarden_state{state=\"gone\"} 1");
}

TEST_CASE("a drain between restarts ends at once and counts no second exit") {
  fed_registry fed;
  fed.start_running();
  fed.at(10s, exited(100, 1));
  fed.at(10500ms, shutdown_requested{.source = trigger_source::control_api});
  CHECK(fed.series("runwarden_runner_exits_total") == exits_with(1));
  CHECK(fed.series("runwarden_drain_duration_seconds_bucket")[0] ==
        "runwarden_drain_duration_seconds_bucket{le=\"1\"} 1");
  CHECK(fed.series("runwarden_errors_total")[0] ==
        "runwarden_errors_total{kind=\"runner_spawn\"} 0");
}

TEST_CASE("webhook outcomes and errors are counted by their bounded labels") {
  metrics_registry registry{"1.2.3", started_at};
  registry.count_webhook_delivery(notification_kind::drain_started, true);
  registry.count_webhook_delivery(notification_kind::gone, false);
  registry.count_webhook_delivery(notification_kind::gone, false);
  registry.count_error(error_kind::http_request);
  const auto families = registry.collect();
  const auto text = write_exposition(families);
  CHECK_THAT(text, Catch::Contains("runwarden_webhook_deliveries_total{event=\"drain_started\","
                                   "outcome=\"delivered\"} 1\n"
                                   "runwarden_webhook_deliveries_total{event=\"drain_started\","
                                   "outcome=\"failed\"} 0\n"
                                   "runwarden_webhook_deliveries_total{event=\"gone\","
                                   "outcome=\"delivered\"} 0\n"
                                   "runwarden_webhook_deliveries_total{event=\"gone\","
                                   "outcome=\"failed\"} 2\n"));
  CHECK_THAT(text, Catch::Contains("runwarden_errors_total{kind=\"http_request\"} 1\n"));
}

TEST_CASE("exit statuses map to a closed set of labels") {
  CHECK(exit_label_index(exit_status{false, 0}) == 0);
  CHECK(exit_label_index(exit_status{false, 1}) == 1);
  CHECK(exit_label_index(exit_status{false, 2}) == 2);
  CHECK(exit_label_index(exit_status{false, 255}) == 2);
  CHECK(exit_labels()[exit_label_index(exit_status{true, SIGTERM})].value == "SIGTERM");
  CHECK(exit_labels()[exit_label_index(exit_status{true, SIGKILL})].value == "SIGKILL");
  CHECK(exit_labels()[exit_label_index(exit_status{true, SIGUSR1})].value == "other");
  CHECK(exit_labels()[exit_label_index(exit_status{true, 64})].kind == "signal");
}

TEST_CASE("scaling decisions count by kind with the last one's time, failures by kind") {
  fed_registry fed;
  fed.registry.count_scaling_decision(scaling_decision_kind::protect, started_at + 10s);
  fed.registry.count_scaling_decision(scaling_decision_kind::scale_up, started_at + 20s);
  fed.registry.count_scaling_decision(scaling_decision_kind::scale_up, started_at + 30s);
  fed.registry.count_scaling_call_failure(autoscaling_failure_kind::retry_later);
  fed.registry.count_scaling_call_failure(autoscaling_failure_kind::access_denied);
  CHECK(fed.series("runwarden_scaling_decisions_total") ==
        lines{"runwarden_scaling_decisions_total{kind=\"scale_up\"} 2",
              "runwarden_scaling_decisions_total{kind=\"scale_in_self\"} 0",
              "runwarden_scaling_decisions_total{kind=\"protect\"} 1",
              "runwarden_scaling_decisions_total{kind=\"unprotect\"} 0",
              "runwarden_scaling_decisions_total{kind=\"hold\"} 0"});
  CHECK(fed.series("runwarden_scaling_last_decision_timestamp_seconds") ==
        lines{"runwarden_scaling_last_decision_timestamp_seconds 1700000030"});
  CHECK(fed.series("runwarden_scaling_call_failures_total") ==
        lines{"runwarden_scaling_call_failures_total{kind=\"retry_with_backoff\"} 0",
              "runwarden_scaling_call_failures_total{kind=\"retry_later\"} 1",
              "runwarden_scaling_call_failures_total{kind=\"already_done\"} 0",
              "runwarden_scaling_call_failures_total{kind=\"access_denied\"} 1",
              "runwarden_scaling_call_failures_total{kind=\"credentials_rejected\"} 0",
              "runwarden_scaling_call_failures_total{kind=\"failed\"} 0"});
}
