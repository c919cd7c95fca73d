// The drain machine's transitions. Each event has one handler; each handler spells out what
// it does in every state, including the states where the event changes nothing, so the
// state × event table is complete. Stale timers are recognised by their id and
// ignored, which is why no effect ever cancels a timer.
#include "src/drain/drain_machine.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <utility>

#include "src/drain/drain_wind_down.hpp"
#include "src/supervision/restart_decision.hpp"
#include "src/util/assert.hpp"
#include "src/util/seeded_random.hpp"
#include "src/util/url_userinfo.hpp"

namespace runwarden {

namespace {

// The signal each stage of the escalation sends; none for no stage.
int signal_of(const drain_config& config, escalation stage) {
  switch (stage) {
    case escalation::graceful_sent:
      return config.graceful_signal;
    case escalation::forceful_sent:
      return config.forceful_signal;
    case escalation::kill_sent:
      return SIGKILL;
    case escalation::none:
      break;
  }
  return 0;
}

}  // namespace

// One step: the runner and the drain's signals here, the wind-down in its base.
class drain_machine::stepper : public drain_wind_down {
 public:
  using drain_wind_down::drain_wind_down;
  using drain_wind_down::operator();

  void operator()(const warden_started&) {
    RUNWARDEN_ASSERT(state_.status == warden_status::starting && !state_.runner_pid);
    emit(spawn_runner{});
  }

  void operator()(const runner_spawned& event) {
    if (state_.runner != runner_state::spawning) {
      say(report_level::warning, "ignored a spawn report while no spawn was pending");
      return;
    }
    state_.runner = runner_state::alive;
    state_.runner_pid = event.pid;
    state_.runner_identity = event.identity;
    // Until it shows it is ready, a signal may find the runner without its handlers.
    state_.runner_started_at = now_;
    state_.runner_answered = false;
    // The jobs reported for the runner before it ended with it (runner_exited); a runner
    // that reports them starts with none.
    if (state_.jobs_reported.reporting())
      state_.jobs_running = combined_jobs(state_.jobs_scraped, state_.jobs_reported);
    say(report_level::info, "runner started, pid " + std::to_string(event.pid));
    if (state_.status == warden_status::starting) move_to(warden_status::running);
    // A drain requested while the runner was being spawned starts now that it can.
    if (state_.status == warden_status::shutting_down &&
        !graceful_signal_waits_for_unregistration())
      send_graceful_signal_once_ready();
  }

  void operator()(const runner_spawn_failed& event) {
    if (state_.runner != runner_state::spawning) return;
    state_.runner = runner_state::exited;
    state_.spawn_failure = event.message;
    // The shell's convention: 127 when the command is not there, 126 when it cannot run.
    const int code = event.error_number == ENOENT ? 127 : 126;
    finish(code, "cannot start the runner: " + event.message);
  }

  void operator()(const runner_exited& event) {
    if (state_.runner != runner_state::alive || state_.runner_pid != event.pid) {
      say(report_level::debug, "reaped pid " + std::to_string(event.pid));
      return;
    }
    state_.runner = runner_state::exited;
    state_.runner_pid.reset();
    state_.last_exit = event.status;
    // Its reported jobs end with it: a missed `end` lasts no longer than the runner. The count
    // itself stays as last seen, which is what an end nobody could read is judged by.
    state_.jobs_reported.clear_jobs();
    if (state_.status == warden_status::shutting_down) {
      runner_stopped(event.status);
    } else if (event.retire_by) {
      // The machine's purpose ended with the runner: no restart, the wind-down at once.
      begin_drain(shutdown_requested{*event.retire_by, std::nullopt, event.retire_reason});
    } else {
      consider_restart(event.status);
    }
  }

  void operator()(const shutdown_requested& event) {
    switch (state_.status) {
      case warden_status::starting:
      case warden_status::running:
        keep_callback(event.callback);
        begin_drain(event);
        expect_lifecycle_lookup(event);
        return;
      case warden_status::shutting_down:
        keep_callback(event.callback);
        join_drain(event);
        expect_lifecycle_lookup(event);
        return;
      case warden_status::gone:
        return;  // Nothing left to stop.
    }
  }

  // Forceful from the start, or at once during a drain.
  void operator()(const forceful_shutdown_requested& event) {
    if (state_.status == warden_status::gone) return;
    state_.force_requested = true;
    if (state_.status != warden_status::shutting_down) {
      begin_drain(shutdown_requested{event.source, std::nullopt, event.reason, std::nullopt});
      return;  // begin_drain sent both signals if the runner is up.
    }
    const auto why = "forceful shutdown requested by " + std::string{to_string(event.source)};
    if (state_.runner == runner_state::alive)
      escalate_to_forceful(why);
    else if (winding_down())
      stop_waiting(why);
  }

  void operator()(const reload_requested&) {
    if (state_.runner != runner_state::alive || state_.status == warden_status::gone) {
      say(report_level::info, "reload requested while no runner is alive: nothing to forward");
      return;
    }
    emit(signal_runner{*state_.runner_pid, SIGHUP, signal_purpose::reload});
  }

  void operator()(const timer_fired& event) {
    switch (event.kind) {
      case timer_kind::restart_backoff:
        if (!take_timer(state_.timers.restart_backoff, event.id)) return;
        if (state_.runner != runner_state::backing_off) return;
        state_.runner = runner_state::spawning;
        emit(spawn_runner{});
        return;
      case timer_kind::drain_deadline:
        if (!take_timer(state_.timers.drain_deadline, event.id)) return;
        if (state_.runner != runner_state::alive) return;
        escalate_to_forceful("the drain deadline passed");
        return;
      case timer_kind::kill_timeout:
        if (!take_timer(state_.timers.kill_timeout, event.id)) return;
        if (state_.runner != runner_state::alive) return;
        state_.stage = escalation::kill_sent;
        say(report_level::warning, "runner still alive " + describe_duration(config_.kill_timeout) +
                                       " after the forceful signal: sending SIGKILL");
        emit(signal_runner{*state_.runner_pid, SIGKILL, signal_purpose::kill});
        return;
      case timer_kind::lifecycle_heartbeat:
        on_lifecycle_heartbeat(event.id);
        return;
      case timer_kind::lifecycle_expiry:
        on_lifecycle_expiry(event.id);
        return;
      case timer_kind::runner_start_grace:
        if (!take_timer(state_.timers.runner_start_grace, event.id)) return;
        on_runner_ready();
        return;
      case timer_kind::unregistration_last_attempt:
        on_last_unregistration_attempt(event.id);
        return;
      case timer_kind::unregistration_alert:
        on_unregistration_alert(event.id);
        return;
    }
  }

  // kill() returned: the stage whose signal this is reached the runner. A reload's SIGHUP
  // or a signal of a stage not (yet) sent records nothing.
  void operator()(const runner_signal_delivered& event) {
    if (state_.runner != runner_state::alive || state_.runner_pid != event.pid) return;
    for (const auto stage :
         {escalation::kill_sent, escalation::forceful_sent, escalation::graceful_sent}) {
      if (stage > state_.stage || signal_of(config_, stage) != event.signal_number) continue;
      state_.delivered = std::max(state_.delivered, stage);
      return;
    }
  }

  // A terminate hook waits for this instance: drain (if not yet), heartbeat, complete.
  void operator()(const lifecycle_action_pending& event) {
    if (state_.status == warden_status::gone) {
      say(report_level::warning, "lifecycle hook " + event.action.hook_name +
                                     " arrived after the runner was gone; nothing waits for it");
      return;
    }
    state_.lifecycle_lookup = step_progress::done;
    const auto deadline = adopt_lifecycle_action(event.action);
    if (!deadline) return;
    const shutdown_requested trigger{.source = trigger_source::cloud_lifecycle,
                                     .deadline = *deadline,
                                     .reason = "lifecycle hook " + event.action.hook_name};
    if (state_.status == warden_status::shutting_down) {
      join_drain(trigger);
      if (winding_down()) continue_wind_down();  // the runner stopped while it was looked up
    } else {
      begin_drain(trigger);
    }
  }

 private:
  void begin_drain(const shutdown_requested& event) {
    move_to(warden_status::shutting_down);
    state_.drain_started_at = now_;
    state_.drain_trigger = event.source;
    state_.drain_reason = event.reason;
    if (is_operator_signal(event.source)) ++state_.operator_signals_received;
    say(report_level::info, "drain requested by " + std::string{to_string(event.source)} +
                                (event.reason.empty() ? "" : ": " + event.reason));
    emit(send_notification{notification_kind::drain_started, {}});
    if (state_.runner == runner_state::backing_off || state_.runner == runner_state::exited) {
      // Between restarts, or after an end that retires (runner_exited's retire_by), there is
      // nothing to drain: the last exit stands.
      state_.timers.restart_backoff.reset();
      state_.runner = runner_state::exited;
      runner_stopped(state_.last_exit.value_or(exit_status{}));
      return;
    }
    // While spawning, the graceful signal goes out once the spawn is confirmed.
    if (state_.runner == runner_state::alive && !graceful_signal_waits_for_unregistration())
      send_graceful_signal_once_ready();
    std::optional<instant> deadline = event.deadline;
    if (config_.drain_timeout) deadline = earliest(deadline, now_ + *config_.drain_timeout);
    if (deadline) set_deadline(*deadline);
    arm_last_unregistration_attempt();  // GitHub's runner: unregistering before the signal
    unregister_alongside_short_deadline();
  }

  // A trigger during a drain never restarts it. It may tighten the deadline, and a second
  // SIGTERM or SIGINT after an operator signal means "now" (as Ctrl-C twice does).
  void join_drain(const shutdown_requested& event) {
    const bool repeated_operator_signal = (event.source == trigger_source::signal_terminate ||
                                           event.source == trigger_source::signal_interrupt) &&
                                          state_.operator_signals_received > 0;
    if (is_operator_signal(event.source)) ++state_.operator_signals_received;
    if (event.deadline && (!state_.drain_deadline || *event.deadline < *state_.drain_deadline)) {
      set_deadline(*event.deadline);
      arm_last_unregistration_attempt();  // a tighter deadline while unregistering
      unregister_alongside_short_deadline();
    } else if (event.deadline) {
      // Said, so that a watcher's log of the deadline it asked for is never taken for the
      // one applied (after a recovery the journal's earlier deadline stands).
      say(report_level::info, "the deadline " + std::string{to_string(event.source)} +
                                  " asks for is not earlier than the drain's, which stands (" +
                                  (*state_.drain_deadline > now_
                                       ? "in " + describe_duration(*state_.drain_deadline - now_)
                                       : std::string{"passed"}) +
                                  ")");
    }
    if (repeated_operator_signal && state_.runner == runner_state::alive) {
      escalate_to_forceful("a second " + std::string{to_string(event.source)} + " arrived");
    } else if (repeated_operator_signal && winding_down()) {
      stop_waiting("a second " + std::string{to_string(event.source)} + " arrived");
    } else {
      say(report_level::info, "already draining; " + std::string{to_string(event.source)} +
                                  " does not restart the drain");
    }
  }

  // One callback, as gitlab-runner's wrapper keeps one (helpers/runner_wrapper/wrapper.go
  // setShutdownCallback): a later call's replaces it.
  void keep_callback(const std::optional<shutdown_callback>& callback) {
    if (!callback) return;
    if (!state_.callbacks.empty() && state_.callbacks.front() != *callback)
      say(report_level::info, "shutdown callback to " +
                                  redact_url_userinfo(state_.callbacks.front().url) +
                                  " replaced by a later call's");
    state_.callbacks.assign(1, *callback);
  }

  void consider_restart(const exit_status& status) {
    const auto& policy = config_.restart;
    if (!exit_calls_for_restart(policy.type, status)) {
      finish(status.as_exit_code(),
             "runner ended (" + to_string(status) + "); restart policy " +
                 std::string{to_string(policy.type)} + " keeps it down",
             status.unknown);
      return;
    }
    forget_restarts_outside_window(state_.recent_restarts, policy.budget_window, now_);
    if (!restart_budget_allows_one_more(policy, state_.recent_restarts)) {
      const int code = status.normal() ? 1 : status.as_exit_code();
      // A runner that keeps dying needs a person, whatever the gone notification says.
      emit(send_notification{notification_kind::restart_budget_spent, {}});
      finish(code,
             "runner ended (" + to_string(status) + ") and the restart budget is spent: " +
                 std::to_string(state_.recent_restarts.size()) + " restarts within " +
                 describe_duration(policy.budget_window),
             status.unknown);
      return;
    }
    const auto delay =
        backoff_delay(policy, state_.recent_restarts.size(), next_unit_random(state_.random_state));
    state_.recent_restarts.push_back(now_);
    ++state_.restarts_total;
    state_.runner = runner_state::backing_off;
    arm(state_.timers.restart_backoff, timer_kind::restart_backoff, now_ + delay);
    say(report_level::warning, "runner ended (" + to_string(status) + "); restart " +
                                   std::to_string(state_.recent_restarts.size()) + " of " +
                                   std::to_string(policy.budget_restarts_max) + " within " +
                                   describe_duration(policy.budget_window) + " in " +
                                   describe_duration(delay));
  }
};

drain_machine::drain_machine(drain_config config) : config_(std::move(config)) {
  RUNWARDEN_ASSERT(config_.kill_timeout > duration::zero());
  RUNWARDEN_ASSERT(!config_.drain_timeout || *config_.drain_timeout > duration::zero());
  state_.random_state = config_.random_seed;
}

std::optional<int> drain_machine::undelivered_signal() const {
  if (state_.runner != runner_state::alive || state_.delivered >= state_.stage) return std::nullopt;
  return signal_of(config_, state_.stage);
}

std::vector<arm_timer> drain_machine::timer_rearms() const {
  const auto& timers = state_.timers;
  const std::pair<const std::optional<armed_timer>*, timer_kind> slots[] = {
      {&timers.restart_backoff, timer_kind::restart_backoff},
      {&timers.drain_deadline, timer_kind::drain_deadline},
      {&timers.kill_timeout, timer_kind::kill_timeout},
      {&timers.lifecycle_heartbeat, timer_kind::lifecycle_heartbeat},
      {&timers.lifecycle_expiry, timer_kind::lifecycle_expiry},
      {&timers.runner_start_grace, timer_kind::runner_start_grace},
      {&timers.unregistration_last_attempt, timer_kind::unregistration_last_attempt},
      {&timers.unregistration_alert, timer_kind::unregistration_alert}};
  std::vector<arm_timer> rearms;
  for (const auto& [slot, kind] : slots)
    if (*slot) rearms.push_back(arm_timer{kind, (*slot)->id, (*slot)->at});
  return rearms;
}

std::vector<drain_effect> drain_machine::step(const drain_event& event, instant now) {
  stepper step{config_, state_, now};
  std::visit(step, event);
  return step.take_effects();
}

}  // namespace runwarden
