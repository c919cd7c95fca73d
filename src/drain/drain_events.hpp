#pragma once
// The drain machine's inputs: what happened, in the past tense (drain_machine.hpp). Each is
// comparable, so that a journal's round trip can be checked.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "src/drain/drain_vocabulary.hpp"
#include "src/drain/job_ledger.hpp"
#include "src/runner/process_identity.hpp"

namespace runwarden {

// A lifecycle action the cloud waits for: an Auto Scaling terminate hook, completed with
// CONTINUE, or an Azure scheduled event (hook_name its EventId), approved with StartRequests.
struct lifecycle_action {
  std::string hook_name;
  duration heartbeat_timeout;  // zero: the cloud takes no heartbeats (Azure)
  instant expires_at;          // the hook's global timeout: past it the cloud goes on regardless
  // Kept free before expires_at for the wind-down; unset: drain_config::wind_down_reserve.
  // An Azure event brings its own drain deadline, so it keeps none.
  std::optional<duration> wind_down_reserve = std::nullopt;
  friend bool operator==(const lifecycle_action&, const lifecycle_action&) = default;
};

struct warden_started {
  friend bool operator==(const warden_started&, const warden_started&) = default;
};
struct runner_spawned {
  std::int64_t pid;
  process_identity identity = {};  // empty when the spawner could not tell (a keeper's)
  friend bool operator==(const runner_spawned&, const runner_spawned&) = default;
};
struct runner_spawn_failed {
  int error_number;
  std::string message;
  friend bool operator==(const runner_spawn_failed&, const runner_spawn_failed&) = default;
};
struct runner_exited {
  std::int64_t pid;
  exit_status status;
  friend bool operator==(const runner_exited&, const runner_exited&) = default;
};
struct shutdown_requested {
  trigger_source source = trigger_source::control_api;
  std::optional<instant> deadline = std::nullopt;  // a trigger's own deadline (spot: 2 min)
  std::string reason = {};
  std::optional<shutdown_callback> callback = std::nullopt;
  friend bool operator==(const shutdown_requested&, const shutdown_requested&) = default;
};
struct forceful_shutdown_requested {
  trigger_source source = trigger_source::control_api;
  std::string reason = {};
  friend bool operator==(const forceful_shutdown_requested&,
                         const forceful_shutdown_requested&) = default;
};
struct reload_requested {
  friend bool operator==(const reload_requested&, const reload_requested&) = default;
};
struct timer_fired {
  timer_kind kind;
  timer_id id;
  friend bool operator==(const timer_fired&, const timer_fired&) = default;
};
struct runner_load_observed {
  std::optional<std::uint32_t> jobs_running;
  // The runner's own word for its state, when it says one (gitlab-runner 19.1+'s
  // gitlab_runner_process_state_info: "starting", "running", "graceful-shutdown", ...).
  std::string runner_state = {};
  friend bool operator==(const runner_load_observed&, const runner_load_observed&) = default;
};
// The CI server no longer knows the runner (or, with confirmed false, never will: retries
// were limited and ran out).
struct unregistration_finished {
  bool confirmed = true;
  std::string detail = {};
  friend bool operator==(const unregistration_finished&, const unregistration_finished&) = default;
};
struct lifecycle_action_pending {
  lifecycle_action action;
  friend bool operator==(const lifecycle_action_pending&,
                         const lifecycle_action_pending&) = default;
};
// The cloud has the action's answer ("no active lifecycle action" counts), or, with
// confirmed false, refuses it for good (a missing permission).
struct lifecycle_action_completed {
  bool confirmed = true;
  std::string detail = {};
  friend bool operator==(const lifecycle_action_completed&,
                         const lifecycle_action_completed&) = default;
};

// The lifecycle client looked for this instance's hook and found none to answer.
struct lifecycle_lookup_ended {
  std::string detail = {};
  friend bool operator==(const lifecycle_lookup_ended&, const lifecycle_lookup_ended&) = default;
};

// kill() returned for a signal the machine asked for: it reached the runner.
struct runner_signal_delivered {
  std::int64_t pid;
  int signal_number;
  friend bool operator==(const runner_signal_delivered&, const runner_signal_delivered&) = default;
};

// A lifecycle completion was due while no lifecycle client was there to ask (one restarted
// by its supervisor, or not yet started after recovery).
struct lifecycle_client_unavailable {
  friend bool operator==(const lifecycle_client_unavailable&,
                         const lifecycle_client_unavailable&) = default;
};

using drain_event =
    std::variant<warden_started, runner_spawned, runner_spawn_failed, runner_exited,
                 shutdown_requested, forceful_shutdown_requested, reload_requested, timer_fired,
                 runner_load_observed, unregistration_finished, lifecycle_action_pending,
                 lifecycle_action_completed, lifecycle_lookup_ended, runner_signal_delivered,
                 lifecycle_client_unavailable, job_reported>;

}  // namespace runwarden
