#pragma once
// What the journal tests share: a drain config that sets every field (jitter and a drain
// timeout included, so the codec has something to lose), one event of every kind, a drain
// recorded through the real machine and writer, and a temporary directory per test.

#include <stdlib.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "src/drain/drain_machine.hpp"
#include "src/journal/journal_compaction.hpp"
#include "src/journal/journal_writer.hpp"

namespace runwarden::testing {

inline drain_config journal_test_config() {
  using namespace std::chrono_literals;
  return drain_config{.graceful_signal = SIGQUIT,
                      .forceful_signal = SIGTERM,
                      .restart = restart_settings{.type = restart_type::permanent,
                                                  .backoff_initial = 250ms,
                                                  .backoff_max = 30s,
                                                  .jitter = 0.35,
                                                  .budget_restarts_max = 4,
                                                  .budget_window = 90s},
                      .drain_timeout = 2h,
                      .kill_timeout = 10s,
                      .random_seed = 0xfeedfacecafe1234ULL,
                      .unregister = false,
                      .unregister_before_stop = false,
                      .wind_down_reserve = 90s,
                      .await_lifecycle_lookup = true,
                      .runner_start_grace = 3s,
                      .unregistration_alert_after = 10min};
}

inline shutdown_callback sample_callback() {
  return shutdown_callback{.url = "https://ci.example/hook",
                           .method = "PUT",
                           .headers = {{"X-Token", "t0k"}, {"X-Empty", ""}, {"X-Token", "2"}}};
}

// Every drain_event alternative, with fields away from their defaults.
inline std::vector<drain_event> every_event_kind() {
  using namespace std::chrono_literals;
  return {
      warden_started{}, runner_spawned{4711}, runner_spawn_failed{2, "No such file or directory"},
      runner_exited{4711, exit_status{.signaled = true, .value = 9}},
      runner_exited{-1, exit_status{.signaled = false, .value = 3}},
      runner_exited{4712, exit_status{.unknown = true}}, shutdown_requested{},
      runner_exited{4713, exit_status{}, trigger_source::retirement, "its job is done"},
      shutdown_requested{.source = trigger_source::cloud_lifecycle,
                         .deadline = instant{-5s},
                         .reason = "spot interruption",
                         .callback = sample_callback()},
      shutdown_requested{.source = trigger_source::signal_quit,
                         .deadline = instant{0},
                         .reason = "",
                         .callback = shutdown_callback{}},
      forceful_shutdown_requested{.source = trigger_source::idle_scale_in, .reason = "now"},
      reload_requested{}, timer_fired{timer_kind::restart_backoff, 1},
      timer_fired{timer_kind::drain_deadline, 0xffffffffffffffffULL},
      timer_fired{timer_kind::kill_timeout, 42}, timer_fired{timer_kind::lifecycle_heartbeat, 43},
      timer_fired{timer_kind::lifecycle_expiry, 44},
      timer_fired{timer_kind::runner_start_grace, 45},
      timer_fired{timer_kind::unregistration_last_attempt, 46},
      timer_fired{timer_kind::unregistration_alert, 47}, runner_load_observed{0u},
      runner_load_observed{std::nullopt}, runner_load_observed{2u, "graceful-shutdown"},
      unregistration_finished{false, "gave up after 3 attempts"},
      lifecycle_action_pending{lifecycle_action{
          .hook_name = "drain", .heartbeat_timeout = 300s, .expires_at = instant{30000s}}},
      // A terminate hook whose group retains the instance past its timeout.
      lifecycle_action_pending{lifecycle_action{.hook_name = "drain",
                                                .heartbeat_timeout = 300s,
                                                .expires_at = instant{30000s},
                                                .retained_when_abandoned = true}},
      // An Azure scheduled event to approve: no heartbeats, a reserve of its own.
      lifecycle_action_pending{lifecycle_action{.hook_name = "C7061BAC-AFDC-4513",
                                                .heartbeat_timeout = 0s,
                                                .expires_at = instant{30s},
                                                .wind_down_reserve = 0s}},
      lifecycle_action_completed{true, "no active lifecycle action"},
      lifecycle_action_completed{true, "no active lifecycle action", true},  // retained
      lifecycle_lookup_ended{"the group has no terminate hook"},
      runner_signal_delivered{4711, SIGTERM}, lifecycle_client_unavailable{},
      job_reported{job_report_kind::started, "12345-1-build"},
      job_reported{job_report_kind::ended, ""}};
}

// A drain with a restart, a reload and an escalation, with the times they happened.
inline std::vector<std::pair<instant, drain_event>> recorded_drain() {
  using namespace std::chrono_literals;
  return {{0s, warden_started{}},
          {10ms, runner_spawned{100}},
          {5s, runner_exited{100, exit_status{.signaled = false, .value = 1}}},
          {5s + 300ms, timer_fired{timer_kind::restart_backoff, 1}},
          {5s + 310ms, runner_spawned{101}},
          {60s, reload_requested{}},
          {120s, shutdown_requested{.source = trigger_source::control_api,
                                    .deadline = instant{180s},
                                    .reason = "scale in",
                                    .callback = sample_callback()}},
          {130s, shutdown_requested{.source = trigger_source::signal_terminate}},
          {180s, timer_fired{timer_kind::drain_deadline, 2}},
          {190s, timer_fired{timer_kind::kill_timeout, 3}},
          {190s + 5ms, runner_exited{101, exit_status{.signaled = true, .value = 9}}}};
}

// Records recorded_drain() through a machine into a new journal at `file`.
inline void write_recorded_drain(const std::filesystem::path& file,
                                 journal_sync_policy policy = {}) {
  const auto config = journal_test_config();
  auto open = journal_writer::create(
      file, journal_header{.created_by = "test", .created_unix_ns = 1, .config = config}, policy);
  if (!open.writer) throw std::runtime_error{open.error};
  drain_machine machine{config};
  for (const auto& [at, event] : recorded_drain()) {
    if (auto error = open.writer->append(at, event, machine.step(event, at)))
      throw std::runtime_error{*error};
  }
}

// A drain machine with the history compaction folds beside it, as run_journal keeps them.
class followed_machine {
 public:
  explicit followed_machine(const drain_config& config) : machine_(config) {}
  std::vector<drain_effect> step(const drain_event& event, instant at) {
    const auto reported_before = machine_.state().jobs_reported.jobs().size();
    auto effects = machine_.step(event, at);
    observe_entry(history_, event, at, machine_.state(), reported_before);
    return effects;
  }
  const drain_state& state() const { return machine_.state(); }
  const journal_history& history() const { return history_; }
  std::optional<std::vector<compacted_step>> compacted(instant now) const {
    return compacted_steps(machine_.config(), machine_.state(), history_, now);
  }

 private:
  drain_machine machine_;
  journal_history history_;
};

class journal_temp_dir {
 public:
  journal_temp_dir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "runwarden-journal-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error{"mkdtemp failed"};
    path_ = pattern;
  }
  ~journal_temp_dir() {
    std::error_code ignored;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(path_, ignored);
  }
  journal_temp_dir(const journal_temp_dir&) = delete;
  journal_temp_dir& operator=(const journal_temp_dir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace runwarden::testing
