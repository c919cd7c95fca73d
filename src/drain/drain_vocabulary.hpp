#pragma once
// The small words the drain machine, its actors and its observers share: time, status,
// triggers, timers and exit statuses, with their printed names.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace runwarden {

// Time as the machine sees it: a count since the epoch of whichever clock drives it (CAF's
// steady clock in production, virtual time in tests and the simulation).
using duration = std::chrono::nanoseconds;
using instant = std::chrono::nanoseconds;
using timer_id = std::uint64_t;

// Status seen from outside; it only ever moves forward.
enum class warden_status : std::uint8_t { starting, running, shutting_down, gone };

enum class trigger_source : std::uint8_t {
  signal_terminate,  // SIGTERM: Kubernetes, systemd, docker stop
  signal_interrupt,  // SIGINT: Ctrl-C
  signal_quit,       // SIGQUIT: gitlab-runner's own word for "drain"
  control_api,
  cloud_lifecycle,    // the Auto Scaling target lifecycle state (Terminated, ...)
  idle_scale_in,
  spot_interruption,  // an EC2 spot instance-action notice; carries a deadline
  rebalance_recommendation,  // an EC2 rebalance recommendation, when configured to drain
};

enum class timer_kind : std::uint8_t {
  restart_backoff,
  drain_deadline,
  kill_timeout,
  lifecycle_heartbeat,  // time to tell the cloud the drain still needs the instance
  lifecycle_expiry,     // the cloud gives up waiting for the lifecycle action
  runner_start_grace,   // a runner just started has had time to install its signal handlers
  unregistration_last_attempt,  // one more unregistration attempt before the drain deadline
  unregistration_alert,  // an unregistration still unconfirmed this long calls for a person
};
// How a lifecycle action ends: CONTINUE lets the cloud go on (terminate, launch), ABANDON
// tells it this instance failed (a launch that never became ready).
enum class lifecycle_result : std::uint8_t { proceed, abandon };
// What a webhook tells: the drain's two milestones, and the failures a person has to look
// at (the CI server keeps refusing to let the runner go, the cloud's lifecycle hook is about
// to expire unanswered, the runner keeps dying and the restart budget is spent).
enum class notification_kind : std::uint8_t {
  drain_started,
  gone,
  unregistration_failing,
  hook_expiring,
  restart_budget_spent,
};
enum class signal_purpose : std::uint8_t { graceful, forceful, kill, reload };
enum class report_level : std::uint8_t { debug, info, warning, error };

// Where to report the end of a drain, as gitlab-runner's wrapper API passes it.
struct shutdown_callback {
  std::string url;
  std::string method;  // empty means POST
  std::vector<std::pair<std::string, std::string>> headers;
  friend bool operator==(const shutdown_callback&, const shutdown_callback&) = default;
};

// runwarden's exit code when its runner ended in a way nobody could read (see exit_status)
// and nothing proves its jobs were done: EX_TEMPFAIL, documented in README.md.
inline constexpr int runner_end_unknown_exit_code = 75;

// How a process ended: exited with a code, killed by a signal, or, for a runner adopted by a
// restarted runwarden (no child of it, so its status cannot be waited for), unknown.
struct exit_status {
  bool signaled = false;
  int value = 0;  // the exit code, or the signal number when signaled
  bool unknown = false;  // the end was seen, its status could not be read
  // The shell's convention, which tini and runwarden follow for their own exit code.
  int as_exit_code() const {
    if (unknown) return runner_end_unknown_exit_code;
    return signaled ? 128 + value : value;
  }
  bool normal() const { return !unknown && !signaled && value == 0; }
  friend bool operator==(const exit_status&, const exit_status&) = default;
};

std::string_view to_string(warden_status status);
std::string_view to_string(trigger_source source);
// A stable machine-readable word for a trigger ("sigterm", "control_api"): metric labels,
// webhook bodies and the control API use it.
std::string_view trigger_token(trigger_source source);
std::string_view to_string(timer_kind kind);
std::string_view to_string(lifecycle_result result);

// Triggers after which an Auto Scaling terminate hook may wait for this instance: the
// group's own termination, and a spot interruption (the group runs its terminate hooks for
// a reclaimed spot instance too, often seconds after the notice).
bool calls_for_lifecycle_lookup(trigger_source source);
std::string_view to_string(signal_purpose purpose);
std::string_view to_string(notification_kind kind);
std::string to_string(const exit_status& status);
bool is_operator_signal(trigger_source source);

}  // namespace runwarden
