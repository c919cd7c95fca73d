// See drain_lifecycle.hpp.
#include "src/drain/drain_lifecycle.hpp"

#include "src/drain/drain_triggers.hpp"
#include "src/drain/drain_wind_down.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// Heartbeats go out at half the hook's heartbeat timeout: one lost or slow call still
// leaves time for the next before the cloud gives up on the instance.
constexpr int heartbeat_divisor = 2;

void schedule_heartbeat(drain_step& step) {
  auto& state = step.state;
  if (state.lifecycle->heartbeat_timeout <= duration::zero()) return;  // none taken
  const auto next = step.now + state.lifecycle->heartbeat_timeout / heartbeat_divisor;
  // A heartbeat cannot stretch the hook past its global timeout; none is sent that late.
  // From here the hook expires at its global timeout unless the wind-down completes it.
  if (next >= state.lifecycle->expires_at && state.lifecycle->retained_when_abandoned) {
    // Nothing is lost at the timeout: the group keeps the instance, so no alert goes out.
    say(step, report_level::info,
        "lifecycle hook " + state.lifecycle->hook_name +
            " cannot be extended again; it expires in " +
            describe_duration(state.lifecycle->expires_at - step.now) +
            " and the group then retains the instance while the drain goes on");
    return;
  }
  if (next >= state.lifecycle->expires_at) {
    say(step, report_level::warning,
        "lifecycle hook " + state.lifecycle->hook_name +
            " cannot be extended again; it expires in " +
            describe_duration(state.lifecycle->expires_at - step.now));
    emit(step, send_notification{notification_kind::hook_expiring, {}});
    return;
  }
  state.next_heartbeat_at = next;
  arm(step, state.timers.lifecycle_heartbeat, timer_kind::lifecycle_heartbeat, next);
}

// Keeps `action` for completion and heartbeats; false when an action was already known.
bool adopt_lifecycle_action(drain_step& step, const lifecycle_action& action) {
  auto& state = step.state;
  state.lifecycle_lookup = step_progress::done;
  if (state.lifecycle) {
    // Found again (a restarted runwarden looks anew): the first finding, journaled, stands.
    if (state.lifecycle->hook_name == action.hook_name)
      say(step, report_level::debug, "lifecycle hook " + action.hook_name + " is already known");
    else
      say(step, report_level::warning,
          "lifecycle hook " + action.hook_name + " ignored: this drain already answers hook " +
              state.lifecycle->hook_name);
    return false;
  }
  state.lifecycle = action;
  say(step, report_level::info,
      "lifecycle hook " + action.hook_name + " waits for this drain; it " + "expires in " +
          describe_duration(action.expires_at - step.now) +
          (action.retained_when_abandoned
               ? ", past which the group retains the instance: the hook sets no drain deadline"
               : ""));
  arm(step, state.timers.lifecycle_expiry, timer_kind::lifecycle_expiry, action.expires_at);
  schedule_heartbeat(step);
  return true;
}

// The drain deadline the action implies: room for the wind-down before it expires, or none
// when the group retains the instance past its expiry (a job is never cut short for it).
std::optional<instant> hook_deadline(const drain_step& step, const lifecycle_action& action) {
  if (action.retained_when_abandoned) return std::nullopt;
  return action.expires_at - action.wind_down_reserve.value_or(step.config.wind_down_reserve);
}

shutdown_requested hook_trigger(const lifecycle_action_pending& event,
                                std::optional<instant> deadline) {
  return shutdown_requested{.source = trigger_source::cloud_lifecycle,
                            .deadline = deadline,
                            .reason = "lifecycle hook " + event.action.hook_name};
}

}  // namespace

void expect_lifecycle_lookup(drain_step& step, const shutdown_requested& event) {
  auto& state = step.state;
  if (!step.config.await_lifecycle_lookup || !calls_for_lifecycle_lookup(event.source)) return;
  if (state.status != warden_status::shutting_down || state.lifecycle ||
      state.lifecycle_lookup != step_progress::not_started)
    return;
  state.lifecycle_lookup = step_progress::in_progress;
}

// A terminate hook waits for this instance: drain, heartbeat, complete.
void begin_drain_for_hook(drain_step& step, const lifecycle_action_pending& event) {
  if (!adopt_lifecycle_action(step, event.action)) return;
  begin_drain(step, hook_trigger(event, hook_deadline(step, event.action)));
}

void join_drain_for_hook(drain_step& step, const lifecycle_action_pending& event) {
  if (!adopt_lifecycle_action(step, event.action)) return;
  join_drain(step, hook_trigger(event, hook_deadline(step, event.action)));
  if (winding_down(step)) continue_wind_down(step);  // the runner stopped while it was looked up
}

void note_stray(drain_step& step, const lifecycle_action_pending& event) {
  RUNWARDEN_ASSERT(step.state.status == warden_status::gone);
  say(step, report_level::warning,
      "lifecycle hook " + event.action.hook_name +
          " arrived after the runner was gone; nothing waits for it");
}

void note_stray(drain_step& step, const lifecycle_action_completed&) {
  RUNWARDEN_ASSERT(step.state.lifecycle_completion != step_progress::in_progress);
  say(step, report_level::debug, "ignored a lifecycle completion nobody waits for");
}

void finish_lifecycle_completion(drain_step& step, const lifecycle_action_completed& event) {
  if (step.state.lifecycle_completion != step_progress::in_progress) {
    note_stray(step, event);
    return;
  }
  step.state.lifecycle_completion = step_progress::done;
  step.state.instance_retained = event.instance_retained;
  say(step, event.confirmed ? report_level::info : report_level::error,
      (event.confirmed
           ? "lifecycle action completed"
           : "the lifecycle action could not be completed; the cloud will time it out") +
          (event.detail.empty() ? "" : ": " + event.detail));
  if (winding_down(step)) continue_wind_down(step);
}

void note_stray(drain_step& step, const lifecycle_lookup_ended&) {
  RUNWARDEN_ASSERT(step.state.lifecycle_lookup != step_progress::in_progress);
  say(step, report_level::debug, "ignored a lifecycle lookup nobody waits for");
}

void end_lifecycle_lookup(drain_step& step, const lifecycle_lookup_ended& event) {
  if (step.state.lifecycle_lookup != step_progress::in_progress) {
    note_stray(step, event);
    return;
  }
  step.state.lifecycle_lookup = step_progress::done;
  say(step, report_level::info,
      "no lifecycle hook to answer" + (event.detail.empty() ? "" : ": " + event.detail));
  if (winding_down(step)) continue_wind_down(step);
}

void note_stray(drain_step& step, const lifecycle_client_unavailable&) {
  RUNWARDEN_ASSERT(step.state.lifecycle_completion != step_progress::in_progress);
  say(step, report_level::debug, "ignored a missing lifecycle client: no completion waits");
}

// A completion is never given up because its worker is away: with a cloud provider on, the
// lifecycle client comes back (its supervisor restarts it, or it starts after recovery) and
// is asked again; the hook's own expiry is the only end of the wait.
void miss_lifecycle_client(drain_step& step, const lifecycle_client_unavailable& event) {
  auto& state = step.state;
  if (state.lifecycle_completion != step_progress::in_progress) {
    note_stray(step, event);
    return;
  }
  if (step.config.await_lifecycle_lookup) {
    say(step, report_level::warning,
        "no lifecycle client is up to complete hook " + state.lifecycle->hook_name +
            " yet; the completion waits for it (the hook expires in " +
            describe_duration(state.lifecycle->expires_at - step.now) + ")");
    return;
  }
  state.lifecycle_completion = step_progress::done;
  say(step, report_level::error,
      "the lifecycle action could not be completed: no lifecycle client "
      "is configured; the cloud will time it out");
  if (winding_down(step)) continue_wind_down(step);
}

void send_lifecycle_heartbeat(drain_step& step, const timer_fired&) {
  auto& state = step.state;
  if (!state.lifecycle || state.lifecycle_completion != step_progress::not_started) return;
  emit(step, record_lifecycle_heartbeat{state.lifecycle->hook_name});
  schedule_heartbeat(step);
}

// Past its global timeout the hook is abandoned and the group retains the instance: the
// drain goes on, and its wind-down still asks for the completion, which finds no active
// action and terminates the retained instance (actors/lifecycle_hooks/retained_instance).
void keep_retained_instance(drain_step& step) {
  auto& state = step.state;
  state.timers.lifecycle_heartbeat.reset();
  say(step, report_level::info,
      "lifecycle hook " + state.lifecycle->hook_name +
          " reached its global timeout; the group retains the instance "
          "(Terminating:Retained) and it is terminated once the runner is gone");
}

void expire_lifecycle_action(drain_step& step, const timer_fired&) {
  auto& state = step.state;
  if (state.lifecycle_completion == step_progress::done) return;
  // A completion under way ends the wait with its answer, as it would for any hook.
  if (state.lifecycle->retained_when_abandoned) return keep_retained_instance(step);
  state.lifecycle_completion = step_progress::done;
  state.timers.lifecycle_heartbeat.reset();
  say(step, report_level::error,
      "lifecycle hook " + state.lifecycle->hook_name +
          " expired before it was completed; the cloud goes on with the "
          "hook's default result");
  if (winding_down(step)) continue_wind_down(step);
}

}  // namespace runwarden
