// See drain_wind_down.hpp. Every wind-down step is level-triggered: continue_wind_down looks
// at what is done and starts the first step that is not, so an answer arriving late or twice
// never skips or repeats a step.
#include "src/drain/drain_wind_down.hpp"

namespace runwarden {

namespace {

// Heartbeats go out at half the hook's heartbeat timeout: one lost or slow call still
// leaves time for the next before the cloud gives up on the instance.
constexpr int heartbeat_divisor = 2;

// The last unregistration attempt starts this long before the drain deadline: one request's
// time (the unregistrar's default request timeout).
constexpr duration last_unregistration_attempt_lead = std::chrono::seconds{30};

}  // namespace

void drain_wind_down::operator()(const runner_load_observed& event) {
  const auto combined = combined_jobs(event.jobs_running, state_.jobs_reported);
  // A runner told to drain takes no new job: once it said it ran none, a scrape that fails
  // as it shuts down (its metrics server goes first) does not make that unknown again. It
  // is what proves an end nobody could read lost no job (continue_wind_down).
  const bool drained_idle = state_.jobs_running == 0u && state_.stage != escalation::none;
  if (!combined && drained_idle) return;
  state_.jobs_scraped = event.jobs_running;
  state_.runner_reported_state = event.runner_state;
  jobs_changed(combined);
  // Metrics that answer come from a runner past its start, its signal handlers in place.
  if (event.jobs_running && state_.runner == runner_state::alive) {
    state_.runner_answered = true;
    if (state_.timers.runner_start_grace) {
      state_.timers.runner_start_grace.reset();
      on_runner_ready();
    }
  }
}

// A report is the runner's own (its hook ran): one that arrives after it exited, or before
// the next one started, belongs to no runner and is dropped.
void drain_wind_down::operator()(const job_reported& event) {
  if (state_.runner != runner_state::alive || state_.status == warden_status::gone) {
    say(report_level::debug,
        std::string{"ignored a job report ("} + to_string(event.kind) + ") while no runner runs");
    return;
  }
  const auto outcome = state_.jobs_reported.apply(event);
  switch (outcome) {
    case job_report_outcome::started:
    case job_report_outcome::ended:
      say(report_level::info, "job " + event.job_id + " " + to_string(event.kind));
      break;
    case job_report_outcome::already_started:
      say(report_level::debug, "job " + event.job_id + " was reported started already");
      break;
    case job_report_outcome::unknown_job:
      if (!event.job_id.empty())
        say(report_level::debug, "job " + event.job_id + " ended, but was not running");
      break;
    case job_report_outcome::full:
      say(report_level::warning, "job " + event.job_id +
                                     " not counted: " + std::to_string(reported_jobs_max) +
                                     " reported jobs have not ended (missed ends?)");
      break;
  }
  jobs_changed(combined_jobs(state_.jobs_scraped, state_.jobs_reported));
}

void drain_wind_down::jobs_changed(std::optional<std::uint32_t> jobs_running) {
  const auto before = state_.jobs_running;
  state_.jobs_running = jobs_running;
  const bool last_job_finished = jobs_running == 0u && before != 0u;
  if (last_job_finished && state_.status == warden_status::shutting_down &&
      state_.runner == runner_state::alive)
    say(report_level::info, "the runner's last job finished; waiting for the runner to exit");
}

void drain_wind_down::on_runner_ready() {
  if (state_.status != warden_status::shutting_down || state_.runner != runner_state::alive) return;
  if (state_.forceful_held) {
    say(report_level::info, "the runner is ready for its signals");
    // The graceful one first when it was held too; it escalates at once, as the deadline
    // has passed.
    if (state_.stage == escalation::none)
      send_graceful_signal();
    else
      escalate_to_forceful("the drain deadline passed");
    return;
  }
  if (state_.stage != escalation::none || graceful_signal_waits_for_unregistration()) return;
  say(report_level::info, "the runner is ready for its graceful signal");
  send_graceful_signal();
}

void drain_wind_down::operator()(const unregistration_finished& event) {
  if (state_.unregistration != step_progress::in_progress) {
    say(report_level::debug, "ignored an unregistration answer nobody waits for");
    return;
  }
  state_.unregistration = step_progress::done;
  state_.unregistration_result = event.detail;
  say(event.confirmed ? report_level::info : report_level::error,
      (event.confirmed ? "unregistered from the CI server"
                       : "unregistration ran out of attempts; the runner may stay registered") +
          (event.detail.empty() ? "" : ": " + event.detail));
  if (state_.status != warden_status::shutting_down) return;
  if (state_.runner == runner_state::alive && state_.stage == escalation::none) {
    send_graceful_signal_once_ready();  // unregistered first: idle, and gets no new job
  } else if (winding_down()) {
    continue_wind_down();
  }
}

void drain_wind_down::operator()(const lifecycle_action_completed& event) {
  if (state_.lifecycle_completion != step_progress::in_progress) {
    say(report_level::debug, "ignored a lifecycle completion nobody waits for");
    return;
  }
  state_.lifecycle_completion = step_progress::done;
  say(event.confirmed ? report_level::info : report_level::error,
      (event.confirmed
           ? "lifecycle action completed"
           : "the lifecycle action could not be completed; the cloud will time it out") +
          (event.detail.empty() ? "" : ": " + event.detail));
  if (winding_down()) continue_wind_down();
}

void drain_wind_down::operator()(const lifecycle_lookup_ended& event) {
  if (state_.lifecycle_lookup != step_progress::in_progress) {
    say(report_level::debug, "ignored a lifecycle lookup nobody waits for");
    return;
  }
  state_.lifecycle_lookup = step_progress::done;
  say(report_level::info,
      "no lifecycle hook to answer" + (event.detail.empty() ? "" : ": " + event.detail));
  if (winding_down()) continue_wind_down();
}

// A completion is never given up because its worker is away: with a cloud provider on, the
// lifecycle client comes back (its supervisor restarts it, or it starts after recovery) and
// is asked again; the hook's own expiry (on_lifecycle_expiry) is the only end of the wait.
void drain_wind_down::operator()(const lifecycle_client_unavailable&) {
  if (state_.lifecycle_completion != step_progress::in_progress) {
    say(report_level::debug, "ignored a missing lifecycle client: no completion waits");
    return;
  }
  if (config_.await_lifecycle_lookup) {
    say(report_level::warning, "no lifecycle client is up to complete hook " +
                                   state_.lifecycle->hook_name +
                                   " yet; the completion waits for it (the hook expires in " +
                                   describe_duration(state_.lifecycle->expires_at - now_) + ")");
    return;
  }
  state_.lifecycle_completion = step_progress::done;
  say(report_level::error,
      "the lifecycle action could not be completed: no lifecycle client "
      "is configured; the cloud will time it out");
  if (winding_down()) continue_wind_down();
}

void drain_wind_down::expect_lifecycle_lookup(const shutdown_requested& event) {
  if (!config_.await_lifecycle_lookup || !calls_for_lifecycle_lookup(event.source)) return;
  if (state_.status != warden_status::shutting_down || state_.lifecycle ||
      state_.lifecycle_lookup != step_progress::not_started)
    return;
  state_.lifecycle_lookup = step_progress::in_progress;
}

std::optional<instant> drain_wind_down::adopt_lifecycle_action(const lifecycle_action& action) {
  if (state_.lifecycle) {
    // Found again (a restarted runwarden looks anew): the first finding, journaled, stands.
    if (state_.lifecycle->hook_name == action.hook_name)
      say(report_level::debug, "lifecycle hook " + action.hook_name + " is already known");
    else
      say(report_level::warning, "lifecycle hook " + action.hook_name +
                                     " ignored: this drain already answers hook " +
                                     state_.lifecycle->hook_name);
    return std::nullopt;
  }
  state_.lifecycle = action;
  say(report_level::info, "lifecycle hook " + action.hook_name + " waits for this drain; it " +
                              "expires in " + describe_duration(action.expires_at - now_));
  arm(state_.timers.lifecycle_expiry, timer_kind::lifecycle_expiry, action.expires_at);
  schedule_heartbeat();
  return action.expires_at - action.wind_down_reserve.value_or(config_.wind_down_reserve);
}

bool drain_wind_down::graceful_signal_waits_for_unregistration() {
  if (!config_.unregister_before_stop || state_.force_requested) return false;
  if (state_.unregistration == step_progress::not_started) {
    say(report_level::info,
        "unregistering before the runner is stopped, so that the CI "
        "server hands it no new job and lets it go once idle");
    start_unregistration();
  }
  return state_.unregistration == step_progress::in_progress;
}

void drain_wind_down::runner_stopped(const exit_status& status) {
  state_.drained_exit = status;
  state_.timers.drain_deadline.reset();
  state_.timers.kill_timeout.reset();
  continue_wind_down();
}

void drain_wind_down::on_lifecycle_heartbeat(timer_id id) {
  if (!take_timer(state_.timers.lifecycle_heartbeat, id)) return;
  if (!state_.lifecycle || state_.lifecycle_completion != step_progress::not_started) return;
  emit(record_lifecycle_heartbeat{state_.lifecycle->hook_name});
  schedule_heartbeat();
}

void drain_wind_down::on_lifecycle_expiry(timer_id id) {
  if (!take_timer(state_.timers.lifecycle_expiry, id)) return;
  if (state_.lifecycle_completion == step_progress::done) return;
  state_.lifecycle_completion = step_progress::done;
  state_.timers.lifecycle_heartbeat.reset();
  say(report_level::error, "lifecycle hook " + state_.lifecycle->hook_name +
                               " expired before it was completed; the cloud goes on with the "
                               "hook's default result");
  if (winding_down()) continue_wind_down();
}

void drain_wind_down::continue_wind_down() {
  const bool unregister = config_.unregister || config_.unregister_before_stop;
  if (unregister && state_.unregistration == step_progress::not_started) start_unregistration();
  if (state_.unregistration == step_progress::in_progress) return;
  if (state_.lifecycle_lookup == step_progress::in_progress) return;  // the hook comes first
  if (state_.lifecycle && state_.lifecycle_completion == step_progress::not_started) {
    state_.lifecycle_completion = step_progress::in_progress;
    state_.timers.lifecycle_heartbeat.reset();
    emit(complete_lifecycle_action{state_.lifecycle->hook_name, lifecycle_result::proceed});
  }
  if (state_.lifecycle_completion == step_progress::in_progress) return;
  const auto status = state_.drained_exit.value_or(exit_status{});
  const auto took = now_ - state_.drain_started_at.value_or(now_);
  std::string how = "runner stopped (" + to_string(status) + ") " + describe_duration(took) +
                    " after the drain began";
  // An end nobody could read stays unknown, unless the runner's own metrics last said it
  // ran no job: then no job can have been lost with it.
  if (status.unknown && state_.jobs_running == 0u) {
    finish(0, how + "; its metrics last showed no job running", true);
    return;
  }
  finish(status.as_exit_code(), how, status.unknown);
}

// The operator's "now" once the runner is gone: what the wind-down still waits for (a CI
// server or an Auto Scaling endpoint that does not answer) is given up, said by name, and
// runwarden ends with the runner's exit code. Without it such a wait has no end of its own.
void drain_wind_down::stop_waiting(const std::string& why) {
  std::string given_up;
  const auto give_up = [&](step_progress& step, const char* what) {
    if (step != step_progress::in_progress) return;
    step = step_progress::done;
    given_up += given_up.empty() ? what : std::string{", "} + what;
  };
  give_up(state_.unregistration, "the unregistration");
  give_up(state_.lifecycle_lookup, "the lifecycle hook's lookup");
  give_up(state_.lifecycle_completion, "the lifecycle hook's completion");
  if (given_up.empty()) return;
  if (state_.unregistration == step_progress::done && state_.unregistration_result.empty())
    state_.unregistration_result = "given up by the operator";
  state_.timers.lifecycle_heartbeat.reset();
  state_.timers.unregistration_last_attempt.reset();
  state_.timers.unregistration_alert.reset();
  say(report_level::warning, why + ": no longer waiting for " + given_up);
  continue_wind_down();
}

void drain_wind_down::start_unregistration() {
  if (state_.drained_exit)
    say(report_level::info, "runner stopped (" + to_string(*state_.drained_exit) +
                                "); unregistering it from the CI server");
  state_.unregistration = step_progress::in_progress;
  state_.unregistration_started_at = now_;
  emit(unregister_runner{});
  arm_last_unregistration_attempt();
  if (config_.unregistration_alert_after)
    arm(state_.timers.unregistration_alert, timer_kind::unregistration_alert,
        now_ + *config_.unregistration_alert_after);
}

void drain_wind_down::arm_last_unregistration_attempt() {
  if (state_.unregistration != step_progress::in_progress || !state_.drain_deadline) return;
  const auto at = *state_.drain_deadline - last_unregistration_attempt_lead;
  if (at <= now_) return;  // too close already: the unregistrar's own schedule goes on
  arm(state_.timers.unregistration_last_attempt, timer_kind::unregistration_last_attempt, at);
}

void drain_wind_down::unregister_alongside_short_deadline() {
  const auto& below = config_.unregister_alongside_below;
  if (!below || !config_.unregister || config_.unregister_before_stop) return;
  if (state_.unregistration != step_progress::not_started || !state_.drain_deadline) return;
  const auto left = *state_.drain_deadline - now_;
  if (left >= *below) return;
  say(report_level::warning, "the drain deadline is " + describe_duration(left) +
                                 " away, too close to unregister after the runner stopped: "
                                 "unregistering alongside the drain");
  start_unregistration();
}

void drain_wind_down::on_last_unregistration_attempt(timer_id id) {
  if (!take_timer(state_.timers.unregistration_last_attempt, id)) return;
  if (state_.unregistration != step_progress::in_progress) return;
  say(report_level::warning, "the drain deadline is " +
                                 describe_duration(last_unregistration_attempt_lead) +
                                 " away and the runner is still registered: one more "
                                 "unregistration attempt before it");
  emit(unregister_runner{});
}

void drain_wind_down::on_unregistration_alert(timer_id id) {
  if (!take_timer(state_.timers.unregistration_alert, id)) return;
  if (state_.unregistration != step_progress::in_progress) return;
  say(report_level::error, "the CI server has not confirmed the unregistration " +
                               describe_duration(*config_.unregistration_alert_after) +
                               " after it began; still trying");
  emit(send_notification{notification_kind::unregistration_failing, {}});
}

void drain_wind_down::schedule_heartbeat() {
  if (state_.lifecycle->heartbeat_timeout <= duration::zero()) return;  // none taken
  const auto next = now_ + state_.lifecycle->heartbeat_timeout / heartbeat_divisor;
  // A heartbeat cannot stretch the hook past its global timeout; none is sent that late.
  // From here the hook expires at its global timeout unless the wind-down completes it.
  if (next >= state_.lifecycle->expires_at) {
    say(report_level::warning, "lifecycle hook " + state_.lifecycle->hook_name +
                                   " cannot be extended again; it expires in " +
                                   describe_duration(state_.lifecycle->expires_at - now_));
    emit(send_notification{notification_kind::hook_expiring, {}});
    return;
  }
  state_.next_heartbeat_at = next;
  arm(state_.timers.lifecycle_heartbeat, timer_kind::lifecycle_heartbeat, next);
}

bool drain_wind_down::winding_down() const {
  return state_.status == warden_status::shutting_down && state_.drained_exit.has_value();
}

}  // namespace runwarden
