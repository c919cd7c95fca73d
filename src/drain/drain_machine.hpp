#pragma once
// The drain state machine: the one place that decides what happens to the runner. Events
// (the runner started or exited, a shutdown was requested, a timer fired) go in with the
// current time; effects (spawn, signal, arm a timer, change status, exit) come out. It does
// no I/O, reads no clock and draws no random number of its own, so one sequence of events
// always yields the same effects: the journal, replay and the simulation rest on that.
//
//   status:  starting ──▶ running ──▶ shutting_down ──▶ gone       (only forward)
//
//   runner:  spawning ──spawned──▶ alive ──exited──▶ backing_off ──timer──▶ spawning
//                │                   │                   │
//                └─spawn failed──────┴─no restart────────┴──────────▶ exited (gone)
//
//   drain escalation (inside shutting_down):
//      graceful signal ──deadline, second operator signal or forceful request──▶ forceful
//                      ──kill timeout──▶ SIGKILL;   runner exit at any stage ──▶ wind-down
//
//   wind-down, once the runner is gone (each step only when it applies):
//      unregister from the CI server ──confirmed──▶ complete the lifecycle action ──▶ gone
//   With unregister_before_stop (GitHub's runner, which has no drain signal of its own)
//   unregistration comes first: the CI server only lets it go once it is idle, and the
//   graceful signal follows the confirmation. Otherwise (GitLab) a deadline closer than
//   unregister_alongside_below (a 30 s preemption) starts the unregistration with the
//   graceful signal, since there will be no time for it after the runner stopped.
//
//   A pending lifecycle action (a terminate hook) is kept alive with heartbeats until it is
//   completed or the cloud's own timeout passes; the drain deadline leaves room before that
//   timeout for the wind-down. A group that retains the instance past that timeout
//   (retained_when_abandoned) gives the drain no deadline: the jobs finish, however long.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "src/drain/drain_vocabulary.hpp"
#include "src/drain/job_ledger.hpp"
#include "src/runner/process_identity.hpp"
#include "src/supervision/restart_policy.hpp"

namespace runwarden {

// What the machine is told once, at start. The signals come from the runner kind.
struct drain_config {
  int graceful_signal;
  int forceful_signal;
  restart_settings restart;
  std::optional<duration> drain_timeout;  // none: wait for the jobs as long as they take
  duration kill_timeout;
  std::uint64_t random_seed;  // feeds the backoff jitter; the simulation fixes it
  // The wind-down: unregister the runner from its CI server when a drain ends it.
  bool unregister = false;
  bool unregister_before_stop = false;  // implies unregister
  // Kept free before a lifecycle action expires, for unregistering and completing it.
  duration wind_down_reserve = std::chrono::seconds{60};
  // A lifecycle client looks for the hook when the cloud calls for a drain (a terminate
  // transition or a spot interruption, calls_for_lifecycle_lookup): such a drain
  // does not end before it has answered (lifecycle_action_pending or lifecycle_lookup_ended),
  // or a runner that stops quickly would leave the hook to time out.
  bool await_lifecycle_lookup = false;
  // A runner just started has not installed its signal handlers yet: a drain that comes
  // this soon holds the graceful signal until the runner shows it is ready (its metrics
  // answer) or this long after its start, whichever is first.
  duration runner_start_grace = std::chrono::seconds{1};
  // An unregistration the CI server has not confirmed this long after it began is a failure
  // a person should look at: the machine sends the unregistration_failing notification,
  // once per drain. None: never.
  std::optional<duration> unregistration_alert_after = std::nullopt;
  // A cloud that gives less than this before it takes the instance (an Azure Preempt or a
  // Google preemption: about 30 s) leaves no time to unregister after the runner stopped:
  // such a drain unregisters alongside the graceful signal. Unset: always after the stop
  // (unregister_before_stop, GitHub's order, has unregistration first anyway).
  std::optional<duration> unregister_alongside_below = std::nullopt;
  friend bool operator==(const drain_config&, const drain_config&) = default;
};

enum class runner_state : std::uint8_t { spawning, alive, backing_off, exited };
enum class escalation : std::uint8_t { none, graceful_sent, forceful_sent, kill_sent };

// Callbacks one drain keeps: the last one a shutdown call brought.
inline constexpr std::size_t shutdown_callbacks_max = 1;

// A timer the machine armed, with the time it is due: a machine recovered from its journal
// arms it again for that time (timer_rearms), neither earlier nor never.
struct armed_timer {
  timer_id id;
  instant at;
  friend bool operator==(const armed_timer&, const armed_timer&) = default;
};

struct armed_timers {
  std::optional<armed_timer> restart_backoff;
  std::optional<armed_timer> drain_deadline;
  std::optional<armed_timer> kill_timeout;
  std::optional<armed_timer> lifecycle_heartbeat;
  std::optional<armed_timer> lifecycle_expiry;
  std::optional<armed_timer> runner_start_grace;
  std::optional<armed_timer> unregistration_last_attempt;
  std::optional<armed_timer> unregistration_alert;
};

// Where a step of the wind-down stands.
enum class step_progress : std::uint8_t { not_started, in_progress, done };

// A lifecycle action the cloud waits for: an Auto Scaling terminate hook, completed with
// CONTINUE, or an Azure scheduled event (hook_name its EventId), approved with StartRequests.
struct lifecycle_action {
  std::string hook_name;
  duration heartbeat_timeout;  // zero: the cloud takes no heartbeats (Azure)
  instant expires_at;          // the hook's global timeout: past it the cloud goes on regardless
  // Kept free before expires_at for the wind-down; unset: drain_config::wind_down_reserve.
  // An Azure event brings its own drain deadline, so it keeps none.
  std::optional<duration> wind_down_reserve = std::nullopt;
  // The group retains the instance when the action is abandoned or times out (an Auto
  // Scaling instance lifecycle policy, src/aws/retention_policy.hpp): the drain takes no
  // deadline from the action, heartbeats it to its global timeout, and past that the
  // instance stays Terminating:Retained until the wind-down's completion ends it.
  bool retained_when_abandoned = false;
  friend bool operator==(const lifecycle_action&, const lifecycle_action&) = default;
};

struct drain_state {
  warden_status status = warden_status::starting;
  runner_state runner = runner_state::spawning;
  std::optional<std::int64_t> runner_pid;
  // Who the runner is beyond its pid, as its spawn told it: a recovered runwarden adopts and
  // signals runner_pid only once the process behind it is proved to be this one.
  process_identity runner_identity;
  // When the runner last started, and whether its metrics have answered since: a runner
  // that answers, or has run for the start grace, has its signal handlers in place.
  std::optional<instant> runner_started_at;
  bool runner_answered = false;
  std::optional<exit_status> last_exit;
  std::string spawn_failure;  // the spawn's own error, when the runner could not be started
  // The drain, once begun.
  std::optional<instant> drain_started_at;
  std::optional<instant> drain_deadline;
  std::optional<trigger_source> drain_trigger;
  std::string drain_reason;
  std::vector<shutdown_callback> callbacks;  // at most shutdown_callbacks_max
  bool force_requested = false;
  // A deadline passed while the runner was in its start grace: the forceful signal waits for
  // the grace too, as a runner without handlers yet dies of any signal.
  bool forceful_held = false;
  escalation stage = escalation::none;
  // The last stage whose signal kill() is known to have delivered; recovery re-sends the
  // signal of `stage` only when this lags behind it.
  escalation delivered = escalation::none;
  std::uint32_t operator_signals_received = 0;
  // Restarts inside the budget window, oldest first; bounded by budget_restarts_max.
  std::vector<instant> recent_restarts;
  std::uint64_t restarts_total = 0;
  // The runner's jobs: its metrics' count and the jobs it reported (job_ledger.hpp), and
  // the two combined, which everything else reads; unknown until either source speaks.
  std::optional<std::uint32_t> jobs_scraped;
  job_ledger jobs_reported;
  std::optional<std::uint32_t> jobs_running;
  std::string runner_reported_state;  // the runner's own view; empty: it says none
  // The wind-down.
  step_progress unregistration = step_progress::not_started;
  std::optional<lifecycle_action> lifecycle;
  step_progress lifecycle_lookup = step_progress::not_started;
  step_progress lifecycle_completion = step_progress::not_started;
  bool instance_retained = false;           // as the completion said (lifecycle_action_completed)
  std::optional<exit_status> drained_exit;  // how the runner ended, once the drain ended it
  std::string unregistration_result;        // per runner, as the unregistrar told it
  // When the next lifecycle heartbeat is due, while one is armed (for status texts).
  std::optional<instant> next_heartbeat_at;
  // When the unregistration began: its alert is due alert_after later (recovery re-arms it).
  std::optional<instant> unregistration_started_at;
  // When the status last changed, and how runwarden ends once gone.
  instant status_since{0};
  std::optional<int> exit_code;
  // The runner's end was seen but not how it ended (exit_status::unknown), and exit_code
  // was decided without it.
  bool exit_unknown = false;
  std::string exit_reason;
  armed_timers timers;
  timer_id next_timer_id = 1;
  std::uint64_t random_state = 0;
};

// Events: what happened, in the past tense. Comparable, so that a journal's round trip can
// be checked.
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
  // Set when this end also ends the machine's purpose (src/retirement decided it before the
  // end reached this machine): no restart; a drain by this trigger (retirement or
  // replacement) winds down at once. One event, so that the journal never holds the end
  // without the decision.
  std::optional<trigger_source> retire_by = std::nullopt;
  std::string retire_reason = {};
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
  // The group retains the instance (Terminating:Retained: its terminate hook was abandoned)
  // and no longer counts it: once gone, the instance end terminates it, keeping the desired
  // capacity. Journaled, so that a restart at gone still ends it.
  bool instance_retained = false;
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

// Effects: what to do, in the imperative.
struct spawn_runner {};
struct signal_runner {
  std::int64_t pid;
  int signal_number;
  signal_purpose purpose;
};
struct arm_timer {
  timer_kind kind;
  timer_id id;
  instant at;
};
struct change_status {
  warden_status from;
  warden_status to;
};
struct exit_warden {
  int exit_code;
  std::string reason;
};
// Tell the configured webhook, and at gone the callbacks collected, how the drain goes.
struct send_notification {
  notification_kind kind;
  std::vector<shutdown_callback> callbacks;
};
struct report {
  report_level level;
  std::string text;
};
struct unregister_runner {};
struct record_lifecycle_heartbeat {
  std::string hook_name;
};
struct complete_lifecycle_action {
  std::string hook_name;
  lifecycle_result result;
};

using drain_effect = std::variant<spawn_runner, signal_runner, arm_timer, change_status,
                                  exit_warden, send_notification, report, unregister_runner,
                                  record_lifecycle_heartbeat, complete_lifecycle_action>;

class drain_machine {
 public:
  explicit drain_machine(drain_config config);

  // Applies one event at time `now` and returns the effects, in the order to carry out.
  std::vector<drain_effect> step(const drain_event& event, instant now);

  const drain_state& state() const { return state_; }
  // After recovery: the signal of the drain's last stage when its delivery is not recorded
  // (runwarden died between deciding and kill()), to be sent once more; otherwise nothing,
  // for a second graceful signal may mean "force" to a runner.
  std::optional<int> undelivered_signal() const;
  // After recovery: every timer armed when the journal ends, due when it was due (one past
  // due fires at once, once). The earlier process's timers died with it.
  std::vector<arm_timer> timer_rearms() const;
  const drain_config& config() const { return config_; }

 private:
  drain_config config_;
  drain_state state_;
};

}  // namespace runwarden
