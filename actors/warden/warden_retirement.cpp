// See warden_retirement.hpp.
#include "actors/warden/warden_retirement.hpp"

#include "src/logging/logging.hpp"
#include "src/supervision/restart_decision.hpp"

namespace runwarden {

namespace {

// What the drain machine would do with this end: restart, keep it down, or give up.
restart_verdict verdict_for(const drain_machine& machine, const exit_status& status, instant now) {
  const auto& policy = machine.config().restart;
  if (!exit_calls_for_restart(policy.type, status)) return restart_verdict::policy_keeps_down;
  auto restarts = machine.state().recent_restarts;
  forget_restarts_outside_window(restarts, policy.budget_window, now);
  return restart_budget_allows_one_more(policy, restarts) ? restart_verdict::restart
                                                          : restart_verdict::budget_spent;
}

trigger_source trigger_of(const retire_instance& decision) {
  return decision.end == instance_end::mark_unhealthy ? trigger_source::replacement
                                                      : trigger_source::retirement;
}

// Logs reports, arms timers, keeps the decision; the decision is returned.
std::optional<retire_instance> carry_out(warden_pointer self,
                                         const std::vector<retirement_effect>& effects, instant now,
                                         bool replaying) {
  std::optional<retire_instance> decided;
  for (const auto& effect : effects) {
    if (const auto* retire = std::get_if<retire_instance>(&effect)) {
      decided = *retire;
      self->state.retirement_decision = *retire;
    } else if (replaying) {
      continue;
    } else if (const auto* arm = std::get_if<arm_retirement_timer>(&effect)) {
      const auto delay = arm->at > now ? arm->at - now : duration::zero();
      self->delayed_send(self, delay, retirement_timer_fired{arm->kind});
    } else if (const auto* said = std::get_if<report_retirement>(&effect)) {
      const auto level = said->level == report_level::error     ? spdlog::level::err
                         : said->level == report_level::warning ? spdlog::level::warn
                                                                : spdlog::level::info;
      warden_logger()->log(level, "retirement: {}", said->text);
    }
  }
  return decided;
}

// When the machine booted, on the actor clock: its uptime, read through the port, before now.
std::optional<instant> machine_booted_at(warden_pointer self, instant now) {
  if (!self->state.machine_uptime) return std::nullopt;
  const auto uptime = self->state.machine_uptime();
  if (!uptime) {
    warden_logger()->warn(
        "retirement: the machine's uptime cannot be read; recycling by uptime counts from "
        "runwarden's first start in its journal");
    return std::nullopt;
  }
  return now - std::chrono::duration_cast<duration>(*uptime);
}

// A decision made while the runner runs: a drain, unless one is under way already.
std::optional<shutdown_requested> drain_for(warden_pointer self,
                                            const std::optional<retire_instance>& decided) {
  if (!decided) return std::nullopt;
  const auto status = self->state.machine->state().status;
  if (status != warden_status::starting && status != warden_status::running) return std::nullopt;
  return shutdown_requested{.source = trigger_of(*decided), .reason = decided->reason};
}

// What a retirement's drain asks for: the end its trigger names, the decrement by the cause.
instance_end_request retirement_request(warden_pointer self) {
  const auto& state = self->state;
  const auto& drain = state.machine->state();
  const auto end = drain.drain_trigger == trigger_source::replacement ? instance_end::mark_unhealthy
                                                                      : instance_end::terminate;
  // The cause is this run's decision; after a recovery only the trigger is left, and a
  // one-job runner's group shrinks as its default says.
  const auto& policy = state.retirement ? state.retirement->policy() : retirement_policy{};
  const bool consumes = state.retirement_decision
                            ? cause_consumes_capacity(state.retirement_decision->cause)
                            : policy.after_exit == after_exit_action::retire;
  return {.end = end,
          .decrement_desired_capacity = policy.end.decrement_desired_capacity.value_or(consumes),
          .reason = drain.drain_reason};
}

}  // namespace

void classify_runner_end(warden_pointer self, drain_event& event, instant now) {
  auto& state = self->state;
  auto* exited = std::get_if<runner_exited>(&event);
  if (!state.retirement || exited == nullptr || exited->retire_by) return;
  const auto& drain = state.machine->state();
  // Only an end the drain machine would take as the runner's, outside a drain.
  if (drain.runner != runner_state::alive || drain.runner_pid != exited->pid) return;
  if (drain.status != warden_status::running && drain.status != warden_status::starting) return;
  const auto effects =
      state.retirement->step(runner_went_down{exited->status, drain.jobs_running,
                                              verdict_for(*state.machine, exited->status, now)},
                             now);
  if (const auto decided = carry_out(self, effects, now, false)) {
    exited->retire_by = trigger_of(*decided);
    exited->retire_reason = decided->reason;
  }
}

std::optional<shutdown_requested> observe_for_retirement(warden_pointer self,
                                                         const drain_event& event,
                                                         std::size_t reported_before, instant now,
                                                         bool replaying) {
  auto& state = self->state;
  if (!state.retirement) return std::nullopt;
  const auto& drain = state.machine->state();
  std::optional<retirement_event> learned;
  if (std::holds_alternative<warden_started>(event)) {
    // A start folded from the journal is the first start's time; only this run reads the boot.
    learned = retirement_watch_began{replaying ? std::nullopt : machine_booted_at(self, now)};
  } else if (const auto* spawned = std::get_if<runner_spawned>(&event)) {
    if (drain.runner == runner_state::alive && drain.runner_pid == spawned->pid)
      learned = runner_came_up{};
  } else if (std::holds_alternative<job_reported>(event)) {
    if (drain.jobs_reported.jobs().size() > reported_before) learned = job_began{};
  } else if (std::holds_alternative<runner_load_observed>(event)) {
    if (drain.jobs_scraped) learned = running_jobs_seen{*drain.jobs_scraped};
  } else if (const auto* exited = std::get_if<runner_exited>(&event); exited && replaying) {
    // Recovery: a retiring end in the journal was decided; nothing else is learned from it.
    if (exited->retire_by) return std::nullopt;
  }
  if (!learned) return std::nullopt;
  const auto decided = carry_out(self, state.retirement->step(*learned, now), now, replaying);
  if (replaying) return std::nullopt;
  return drain_for(self, decided);
}

std::optional<shutdown_requested> on_retirement_timer(warden_pointer self,
                                                      const retirement_timer_fired& fired,
                                                      instant now) {
  auto& state = self->state;
  if (!state.retirement) return std::nullopt;
  return drain_for(self, carry_out(self, state.retirement->step(fired, now), now, false));
}

std::optional<shutdown_requested> on_disk_check(warden_pointer self, instant now) {
  auto& state = self->state;
  if (!state.retirement || !state.disk_used_percent || state.retirement->state().decided)
    return std::nullopt;
  const auto& path = state.retirement->policy().recycle.disk_path;
  std::optional<shutdown_requested> drain;
  if (const auto used = state.disk_used_percent(path))
    drain = drain_for(
        self, carry_out(self, state.retirement->step(disk_usage_seen{*used}, now), now, false));
  else
    warden_logger()->warn("retirement: cannot read the disk use of {}", path);
  if (!state.retirement->state().decided)
    self->delayed_send(self, state.disk_check_interval, disk_check_atom::value);
  return drain;
}

bool end_instance_before_exit(warden_pointer self, std::function<void()> then_exit) {
  auto& state = self->state;
  const auto& drain = state.machine->state();
  const bool retiring = drain.drain_trigger == trigger_source::retirement ||
                        drain.drain_trigger == trigger_source::replacement;
  if (!retiring && !drain.instance_retained) return false;
  if (!state.instance_end) {
    warden_logger()->warn(
        drain.instance_retained
            ? "instance end: the group retains this instance, and nothing is wired to end it"
            : "retirement: nothing is configured to end the instance "
              "(runner.retire_command, or cloud.provider = \"aws\"); runwarden "
              "only exits, and its journal keeps the runner from starting again");
    return false;
  }
  if (state.instance_ending) return true;
  state.instance_ending = true;
  // A retained instance is terminated whatever the drain's trigger: the group no longer
  // counts it (a decrement would shrink it once more) and keeps billing it.
  const auto request =
      drain.instance_retained
          ? instance_end_request{.end = instance_end::terminate,
                                 .decrement_desired_capacity = false,
                                 .reason =
                                     "the group retains this instance (its terminate "
                                     "hook was abandoned) and the runner is gone",
                                 .retained = true}
          : retirement_request(self);
  self->request(state.instance_end, caf::infinite, end_instance_atom::value, request)
      .then([=](const instance_end_outcome&) { then_exit(); },
            [=](caf::error& error) {
              warden_logger()->error("instance end: no answer: {}", self->system().render(error));
              then_exit();
            });
  return true;
}

}  // namespace runwarden
