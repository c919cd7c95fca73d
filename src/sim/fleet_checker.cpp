// See fleet_checker.hpp. The details read as the world worded them before the checker stood
// apart, so that reports did not change.
#include "src/sim/fleet_checker.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace runwarden {

namespace {

// A runner still registered this long after its instance went is a leak.
constexpr sim_seconds registration_grace = 300;
// A drain that finished this long before its hook's end should have completed the hook.
constexpr sim_seconds completion_slack = 60;

std::string deadline_text(std::optional<sim_seconds> deadline) {
  return deadline ? fmt::format("{:.1f}s", *deadline) : "none";
}

}  // namespace

void fleet_checker::violate(sim_seconds at, fleet_invariant invariant, std::string detail) {
  violations_.push_back({at, std::string{name_of(invariant)}, std::move(detail)});
}

bool fleet_checker::faulty(sim_seconds at) const {
  const auto& until = scenario_.faults.faults_until;
  return !until || at < static_cast<double>(until->count());
}

void fleet_checker::desired_set(sim_seconds at, int desired) {
  if (desired < scenario_.min_size || desired > scenario_.max_size)
    violate(at, fleet_invariant::capacity_out_of_bounds,
            fmt::format("desired capacity {} outside [{}, {}]", desired, scenario_.min_size,
                        scenario_.max_size));
}

// runwarden starts one runner at a time, and never a fresh one once a drain has begun (it
// would take jobs the drain then has to wait out, or kill).
void fleet_checker::runner_spawned(sim_seconds at, const sim_instance& instance,
                                   const sim_runner& previous, bool draining,
                                   std::optional<sim_seconds> deadline) {
  if (previous.alive)
    violate(
        at, fleet_invariant::two_runners,
        fmt::format("{}: a runner started while runner {} still runs", instance.id, previous.pid));
  if (retirements_.contains(instance.id))
    violate(at, fleet_invariant::runner_started_after_retirement,
            fmt::format("{}: a runner started {:.0f}s after the instance's retirement was "
                        "decided",
                        instance.id, at - retirements_.at(instance.id)));
  if (draining)
    violate(at, fleet_invariant::runner_started_in_drain,
            fmt::format("{}: a fresh runner started during a drain (deadline {})", instance.id,
                        deadline_text(deadline)));
}

void fleet_checker::jobs_killed_by_signal(sim_seconds at, const sim_instance& instance,
                                          std::size_t jobs, int signal_number,
                                          std::optional<sim_seconds> deadline) {
  if (!deadline || at < *deadline - 1e-6)
    violate(at, fleet_invariant::job_killed_early,
            fmt::format("{}: {} job(s) killed by runwarden's signal {} before the drain "
                        "deadline ({})",
                        instance.id, jobs, signal_number, deadline_text(deadline)));
}

void fleet_checker::status_published(sim_seconds at, const sim_instance& instance,
                                     warden_status from, warden_status to) {
  if (to < from)
    violate(at, fleet_invariant::status_backwards,
            fmt::format("{}: {} after {}", instance.id, to_string(to), to_string(from)));
}

// A reclaim came while the runner's wind-down (unregistration, then the hook's completion)
// was still under way: retries under faults may take longer than a two-minute notice
// (counted), never without faults. Faults that ended less than one retry wait before the
// reclaim count too: the attempt that would succeed was planned while they lasted, and the
// backoff may hold it past the reclaim. The world's own registration is no measure of
// progress: a DELETE whose answer was lost left runwarden retrying it.
bool fleet_checker::reclaimed(sim_seconds at, const sim_instance& instance) {
  const auto exited = instance.runner.exited_at;
  if (instance.runner.alive || !exited || *exited + completion_slack >= at) return false;
  const auto retry_wait_max = static_cast<double>(
      (sim_retry_wait_max + std::max(sim_unregister_timeout, sim_completion_call_budget)).count());
  if (faulty(at - retry_wait_max)) return true;
  if (!instance.registered) {
    if (instance.terminate_action) completed_in_time(at, instance);
    return false;
  }
  violate(at, fleet_invariant::left_registered,
          fmt::format("{}: still registered when its instance was taken back, {:.0f}s after "
                      "the runner exited, with no fault under way",
                      instance.id, at - *exited));
  return false;
}

// A hook (on Azure, an event) still open this long after its runner exited should have been
// completed (approved).
void fleet_checker::completed_in_time(sim_seconds at, const sim_instance& instance) {
  const auto exited = instance.runner.exited_at;
  if (instance.runner.alive || !exited || *exited + completion_slack >= at) return;
  const bool azure = scenario_.cloud == fleet_cloud::azure;
  violate(at, azure ? fleet_invariant::event_not_approved : fleet_invariant::hook_not_completed,
          fmt::format("{}: the {} was still open {:.0f}s after the runner exited", instance.id,
                      azure ? "Azure " + instance.terminate_action->hook + " event"
                            : std::string{"terminate hook"},
                      at - *exited));
}

// Liveness: a terminate hook (an Azure event) that runs out while its runner still runs,
// though no fault could have stopped runwarden. Within its heartbeat timeout, one heartbeat
// would have kept the hook, and its retries wait at most sim_retry_wait_max; at the hook's
// end (its global timeout, an event's NotBefore), the drain had the whole budget to force
// the runner, a signal no API fault holds up.
void fleet_checker::action_timed_out(sim_seconds at, const sim_instance& instance,
                                     const sim_lifecycle_action& action) {
  if (!instance.runner.alive) return;
  const bool by_heartbeat = action.heartbeat_deadline < action.global_deadline;
  const auto fault_free_since =
      by_heartbeat
          ? at - static_cast<double>((scenario_.heartbeat_timeout + sim_retry_wait_max).count())
          : action.started;
  if (faulty(fault_free_since)) return;
  violate(at, fleet_invariant::hook_timed_out_running,
          fmt::format("{}: the {} ran out while its runner still ran, with no fault since "
                      "{:.0f}s",
                      instance.id,
                      action.event_id.empty() ? std::string{"terminate hook"}
                                              : "Azure " + action.hook + " event",
                      fault_free_since));
}

// As an Azure event's approval: the group takes the instance at once, so a terminate hook
// may be completed only once its runner is gone and unregistered.
void fleet_checker::hook_completed(sim_seconds at, const sim_instance& instance,
                                   const std::string& result) {
  if (instance.runner.alive || instance.registered)
    violate(at, fleet_invariant::completed_before_gone,
            fmt::format("{}: terminate hook completed ({}) while its runner was still {}",
                        instance.id, result, instance.runner.alive ? "running" : "registered"));
}

// Azure lets any VM of the placement group approve any event; runwarden must approve only its
// own, and only once its runner is gone and unregistered.
void fleet_checker::azure_event_approved(sim_seconds at, const sim_instance& approver,
                                         const sim_instance& instance) {
  const auto& event = *instance.terminate_action;
  if (approver.id != instance.id)
    violate(
        at, fleet_invariant::approved_by_another,
        fmt::format("{}'s Azure {} event approved by {}", instance.id, event.hook, approver.id));
  else if (instance.runner.alive || instance.registered)
    violate(at, fleet_invariant::approved_before_gone,
            fmt::format("{}: Azure {} event approved while its runner was still {}", instance.id,
                        event.hook, instance.runner.alive ? "running" : "registered"));
}

void fleet_checker::instance_ticked(sim_seconds at, const sim_instance& instance) {
  retirement_ended_in_time(at, instance);
  const auto& action = instance.terminate_action;
  if (instance.gone && instance.registered && instance.lifecycle_state == "Terminated" && action &&
      action->outcome == "CONTINUE" && at >= action->ended.value_or(at) + registration_grace &&
      reported_registered_.insert(instance.id).second)
    violate(at, fleet_invariant::left_registered,
            instance.id + ": still registered with GitLab after its hook was completed");
}

// Liveness: with the faults over, a drain with time to spare must have ended.
void fleet_checker::finished(sim_seconds at, const std::vector<sim_instance>& instances) {
  if (!scenario_.faults.faults_until) return;
  const double slack =
      static_cast<double>((scenario_.job_duration_max + std::chrono::minutes{10}).count());
  for (const auto& instance : instances) {
    const auto& action = instance.terminate_action;
    if (action && !action->ended && action->started + slack < at)
      violate(
          at, fleet_invariant::drain_not_finished,
          fmt::format("{}: terminating since {:.0f}s and not gone", instance.id, action->started));
  }
}

}  // namespace runwarden
