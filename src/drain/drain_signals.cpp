// See drain_signals.hpp.
#include "src/drain/drain_signals.hpp"

#include <algorithm>
#include <csignal>

#include "src/drain/drain_unregistration.hpp"
#include "src/runner/signal_names.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

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

void send_graceful_signal(drain_step& step) {
  auto& state = step.state;
  RUNWARDEN_ASSERT(state.runner == runner_state::alive && state.stage == escalation::none);
  state.stage = escalation::graceful_sent;
  say(step, report_level::info,
      "asking the runner to finish its jobs (" + signal_name(step.config.graceful_signal) + ")");
  emit(step,
       signal_runner{*state.runner_pid, step.config.graceful_signal, signal_purpose::graceful});
  // A deadline that passed, or a force requested, while the runner was spawning.
  if (state.force_requested) {
    escalate_to_forceful(step, "forceful shutdown requested");
  } else if (state.drain_deadline && *state.drain_deadline <= step.now) {
    escalate_to_forceful(step, "the drain deadline has already passed");
  }
}

bool runner_ready(const drain_step& step) {
  const auto& state = step.state;
  return state.runner_answered || !state.runner_started_at ||
         step.now >= *state.runner_started_at + step.config.runner_start_grace;
}

void send_graceful_signal_once_ready(drain_step& step) {
  auto& state = step.state;
  RUNWARDEN_ASSERT(state.runner == runner_state::alive && state.stage == escalation::none);
  if (!runner_ready(step) && !state.force_requested) {
    if (!state.timers.runner_start_grace) {
      say(step, report_level::info,
          "the runner started moments ago: the graceful signal waits "
          "until its metrics answer or " +
              describe_duration(step.config.runner_start_grace) + " after its start");
      arm(step, state.timers.runner_start_grace, timer_kind::runner_start_grace,
          *state.runner_started_at + step.config.runner_start_grace);
    }
    return;
  }
  send_graceful_signal(step);
}

void escalate_to_forceful(drain_step& step, const std::string& why) {
  auto& state = step.state;
  RUNWARDEN_ASSERT(state.runner == runner_state::alive);
  if (state.stage == escalation::forceful_sent || state.stage == escalation::kill_sent) {
    say(step, report_level::info, why + "; the forceful signal was already sent");
    return;
  }
  // A deadline is no operator's "now": a runner that started moments ago and has not shown
  // it is ready would die of the signal before its handlers exist (exit 143), so it waits
  // for the start grace like the graceful one.
  if (!runner_ready(step) && !state.force_requested) {
    if (!state.forceful_held)
      say(step, report_level::warning,
          why +
              ": the runner started moments ago; the forceful signal "
              "waits until it is ready");
    state.forceful_held = true;
    if (!state.timers.runner_start_grace)
      arm(step, state.timers.runner_start_grace, timer_kind::runner_start_grace,
          *state.runner_started_at + step.config.runner_start_grace);
    return;
  }
  state.forceful_held = false;
  state.stage = escalation::forceful_sent;
  say(step, report_level::warning,
      why + ": stopping the runner now (" + signal_name(step.config.forceful_signal) + ")");
  emit(step,
       signal_runner{*state.runner_pid, step.config.forceful_signal, signal_purpose::forceful});
  arm(step, state.timers.kill_timeout, timer_kind::kill_timeout,
      step.now + step.config.kill_timeout);
}

void set_deadline(drain_step& step, instant deadline) {
  step.state.drain_deadline = deadline;
  if (deadline <= step.now) {
    // A runner still spawning hears both signals once it is up (send_graceful_signal).
    if (step.state.runner == runner_state::alive)
      escalate_to_forceful(step, "the drain deadline has already passed");
    return;
  }
  arm(step, step.state.timers.drain_deadline, timer_kind::drain_deadline, deadline);
  say(step, report_level::info, "drain deadline in " + describe_duration(deadline - step.now));
}

void on_runner_ready(drain_step& step) {
  auto& state = step.state;
  if (state.status != warden_status::shutting_down || state.runner != runner_state::alive) return;
  if (state.forceful_held) {
    say(step, report_level::info, "the runner is ready for its signals");
    // The graceful one first when it was held too; it escalates at once, as the deadline
    // has passed.
    if (state.stage == escalation::none)
      send_graceful_signal(step);
    else
      escalate_to_forceful(step, "the drain deadline passed");
    return;
  }
  if (state.stage != escalation::none || graceful_signal_waits_for_unregistration(step)) return;
  say(step, report_level::info, "the runner is ready for its graceful signal");
  send_graceful_signal(step);
}

void escalate_at_deadline(drain_step& step, const timer_fired&) {
  RUNWARDEN_ASSERT(step.state.runner == runner_state::alive);
  escalate_to_forceful(step, "the drain deadline passed");
}

void send_kill(drain_step& step, const timer_fired&) {
  auto& state = step.state;
  RUNWARDEN_ASSERT(state.runner == runner_state::alive);
  state.stage = escalation::kill_sent;
  say(step, report_level::warning,
      "runner still alive " + describe_duration(step.config.kill_timeout) +
          " after the forceful signal: sending SIGKILL");
  emit(step, signal_runner{*state.runner_pid, SIGKILL, signal_purpose::kill});
}

void end_start_grace(drain_step& step, const timer_fired&) { on_runner_ready(step); }

// kill() returned: the stage whose signal this is reached the runner. A reload's SIGHUP
// or a signal of a stage not (yet) sent records nothing.
void record_delivery(drain_step& step, const runner_signal_delivered& event) {
  auto& state = step.state;
  if (state.runner != runner_state::alive || state.runner_pid != event.pid) return;
  for (const auto stage :
       {escalation::kill_sent, escalation::forceful_sent, escalation::graceful_sent}) {
    if (stage > state.stage || signal_of(step.config, stage) != event.signal_number) continue;
    state.delivered = std::max(state.delivered, stage);
    return;
  }
}

}  // namespace runwarden
