#pragma once
// The part of a drain that is not about signals: what the runner says of its jobs, the
// unregistration from the CI server, and the cloud's lifecycle action with its heartbeats.
// The machine's stepper builds on it (drain_machine.cpp).

#include "src/drain/drain_step_context.hpp"

namespace runwarden {

class drain_wind_down : public drain_step_context {
 public:
  using drain_step_context::drain_step_context;

  void operator()(const runner_load_observed& event);
  void operator()(const job_reported& event);
  void operator()(const unregistration_finished& event);
  void operator()(const lifecycle_action_completed& event);
  void operator()(const lifecycle_lookup_ended& event);
  void operator()(const lifecycle_client_unavailable& event);

 protected:
  // The runner's combined job count changed (metrics or reports): kept, and said when its
  // last job finished during a drain.
  void jobs_changed(std::optional<std::uint32_t> jobs_running);
  // Keeps `action` for completion and heartbeats; returns the drain deadline it implies,
  // or nothing when the same action was already known.
  std::optional<instant> adopt_lifecycle_action(const lifecycle_action& action);
  // True when the graceful signal has to wait for unregistration, which this starts.
  bool graceful_signal_waits_for_unregistration();
  // The drain ended the runner: wind down, then gone.
  void runner_stopped(const exit_status& status);
  void on_lifecycle_heartbeat(timer_id id);
  void on_lifecycle_expiry(timer_id id);
  // A drain the cloud called for waits for the lifecycle client's look for the hook.
  void expect_lifecycle_lookup(const shutdown_requested& event);
  void continue_wind_down();
  bool winding_down() const;
  // The runner can take a signal now; a graceful signal held for it goes out.
  void on_runner_ready();
  // The operator's "now" after the runner is gone: the waits that remain are given up.
  void stop_waiting(const std::string& why);
  // With a drain deadline and an unregistration under way, one more attempt is asked for a
  // request's time before the deadline (a spot reclaim would take the runner's registration
  // with the instance, whatever wait the unregistrar chose).
  void arm_last_unregistration_attempt();
  void on_last_unregistration_attempt(timer_id id);
  // An unregistration unconfirmed for config_.unregistration_alert_after calls for a person.
  void on_unregistration_alert(timer_id id);
  // A deadline closer than config_.unregister_alongside_below (a preemption's 30 s) leaves
  // no time to unregister after the stop: the unregistration starts now, beside the drain.
  void unregister_alongside_short_deadline();

 private:
  void start_unregistration();
  void schedule_heartbeat();
};

}  // namespace runwarden
