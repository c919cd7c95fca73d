// See fleet_checker.hpp. The retirement invariants: once an instance's runwarden has
// journaled its decision to retire the instance (src/retirement), no runner starts there
// again, the instance ends within a bound, and no job dies of it.
#include <algorithm>

#include <fmt/format.h>

#include "actors/instance_end/instance_end_actor.hpp"
#include "src/sim/fleet_checker.hpp"

namespace runwarden {

namespace {

// How long a simulated runwarden's drain waits for a runner that ignores its graceful
// signal before forcing it (sim_inputs.cpp's [drain] kill_timeout).
constexpr sim_seconds drain_kill_timeout = 10;
// The world's own steps between the last call and the instance's end: the group terminates
// a Terminating:Proceed instance on its next tick, an instance boots on a tick.
constexpr sim_seconds world_slack = 60;

// Jobs the world kills for reasons no retirement has a hand in: faults it injected.
bool killed_by_fault(const std::string& why) {
  return why == "the spot instance was reclaimed" || why == "the runner crashed";
}

bool any_fault(const fleet_faults& faults) {
  return faults.api_error_rate > 0 || faults.throttle_rate > 0 || faults.busy_rate > 0 ||
         faults.drop_rate > 0 || faults.imds_error_rate > 0 || faults.latency_max.count() > 0 ||
         faults.runner_crashes_per_hour > 0 || faults.runwarden_crashes_per_hour > 0;
}

}  // namespace

// From the decision to the instance's end, without faults:
//   the drain: a decision made while the runner runs a job (recycling) waits the job out,
//     at most load.job_duration_max, and a runner that ignores the graceful signal is forced
//     after the kill timeout; a one-job runner's own decisions (job done, idle) find no job;
//   the unregistration: one retry wait and attempt (GitHub's busy lag after a job is shorter);
//   the instance end: its Auto Scaling calls (TerminateInstanceInAutoScalingGroup, twice at
//     the group's minimum, the Describe calls, CompleteLifecycleAction) are each answered at
//     once, but a step planned while faults lasted may still wait out the instance end's
//     retry wait (instance_end_wiring::retry_wait_max) and, within a call, the Auto Scaling
//     client's backoff (which sim_completion_call_budget bounds);
//   a runwarden down at the decision comes back after faults.runwarden_restart_after;
//   the world's own ticks.
sim_seconds retirement_end_bound(const fleet_scenario& scenario) {
  const auto seconds = [](auto span) {
    return std::chrono::duration_cast<std::chrono::duration<sim_seconds>>(span).count();
  };
  return seconds(scenario.job_duration_max) + drain_kill_timeout +
         seconds(sim_retry_wait_max + sim_unregister_timeout) +
         seconds(instance_end_wiring{}.retry_wait_max) + seconds(sim_completion_call_budget) +
         seconds(scenario.faults.runwarden_restart_after) + world_slack;
}

void fleet_checker::retirement_decided(sim_seconds at, const sim_instance& instance) {
  retirements_.emplace(instance.id, at);  // the first decision counts: it is final
}

// A retirement drains the runner gracefully, with no deadline of its own, and ends the
// instance once the runner is gone: a job killed on a retiring instance by anything but an
// injected fault was killed by the retirement. The faults: its runner's crash, and a spot
// interruption, whether the reclaim itself kills the job or the drain deadline its notice
// set (a job GitHub handed the runner while its unregistration was still retrying).
void fleet_checker::jobs_killed(sim_seconds at, const sim_instance& instance, std::size_t jobs,
                                const std::string& why) {
  const auto decided = retirements_.find(instance.id);
  if (decided == retirements_.end() || killed_by_fault(why) || instance.spot_reclaim_at) return;
  violate(at, fleet_invariant::job_killed_by_retirement,
          fmt::format("{}: {} job(s) killed ({}) {:.0f}s after the instance's retirement was "
                      "decided",
                      instance.id, jobs, why, at - decided->second));
}

// Faults can hold the wind-down's calls up for as long as they last, so the bound runs from
// the decision or from the faults' end, whichever is later; with faults throughout (a safety
// run with faults) it is not judged, as drain_not_finished is not.
void fleet_checker::retirement_ended_in_time(sim_seconds at, const sim_instance& instance) {
  const auto decided = retirements_.find(instance.id);
  if (decided == retirements_.end() || instance.gone) return;
  auto from = decided->second;
  if (any_fault(scenario_.faults)) {
    const auto& until = scenario_.faults.faults_until;
    if (!until) return;
    from = std::max(from, static_cast<sim_seconds>(until->count()));
  }
  const auto bound = retirement_end_bound(scenario_);
  if (at <= from + bound || !reported_unended_.insert(instance.id).second) return;
  violate(at, fleet_invariant::retirement_not_ended,
          fmt::format("{}: not terminated {:.0f}s after its retirement was decided at {:.0f}s "
                      "(bound {:.0f}s from {:.0f}s)",
                      instance.id, at - decided->second, decided->second, bound, from));
}

}  // namespace runwarden
