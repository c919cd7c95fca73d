#pragma once
// The small words the drain machine, its actors and its observers share: status, triggers
// and timers, with their printed names. Time (src/util/machine_time.hpp) and how a process
// ended (src/runner/exit_status.hpp) are words the supervision below it shares too.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/runner/exit_status.hpp"
#include "src/util/machine_time.hpp"

namespace runwarden {

using timer_id = std::uint64_t;

// Status seen from outside; it only ever moves forward.
enum class warden_status : std::uint8_t { starting, running, shutting_down, gone };

enum class trigger_source : std::uint8_t {
  signal_terminate,  // SIGTERM: Kubernetes, systemd, docker stop
  signal_interrupt,  // SIGINT: Ctrl-C
  signal_quit,       // SIGQUIT: gitlab-runner's own word for "drain"
  control_api,
  cloud_lifecycle,  // the Auto Scaling target lifecycle state (Terminated, ...)
  idle_scale_in,
  spot_interruption,         // an EC2 spot instance-action notice; carries a deadline
  rebalance_recommendation,  // an EC2 rebalance recommendation, when configured to drain
  // The other clouds' warnings, each with the deadline its notice gives.
  ec2_scheduled_maintenance,  // an EC2 scheduled event (instance-stop, -retirement, reboots)
  azure_preempt,              // an Azure Spot eviction: Scheduled Events' Preempt, >= 30 s
  azure_terminate,            // a scale-set scale-in with a terminate notification
  azure_reboot,               // Azure Reboot, when configured to drain
  azure_redeploy,             // Azure Redeploy, when configured to drain
  gcp_preemption,             // Google Cloud instance/preempted TRUE: about 30 s
  gcp_host_maintenance,       // Google Cloud TERMINATE_ON_HOST_MAINTENANCE
  host,  // the program that embeds runwarden (include/runwarden/instance.hpp), which has no
         // control API
  // The machine's purpose ended (src/retirement): once gone, the instance is ended.
  retirement,
  // Past the restart budget with on_give_up = "unhealthy": once gone, the instance is marked
  // unhealthy so that its group replaces it.
  replacement,
  // The operating system is shutting down or rebooting (logind's PrepareForShutdown): a
  // request, as the control API's, so that systemd's own SIGTERM later is not a second one.
  os_shutdown,
};

enum class timer_kind : std::uint8_t {
  restart_backoff,
  drain_deadline,
  kill_timeout,
  lifecycle_heartbeat,          // time to tell the cloud the drain still needs the instance
  lifecycle_expiry,             // the cloud gives up waiting for the lifecycle action
  runner_start_grace,           // a runner just started has had time to install its signal handlers
  unregistration_last_attempt,  // one more unregistration attempt before the drain deadline
  unregistration_alert,         // an unregistration still unconfirmed this long calls for a person
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
bool is_operator_signal(trigger_source source);

}  // namespace runwarden
