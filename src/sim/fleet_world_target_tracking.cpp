// See fleet_world.hpp and target_tracking_model.hpp. The group's target-tracking policy on
// the job slots its runwardens publish: every publishing interval each instance past its
// warm-up adds its slots, counted by the publisher's own rule (src/scaling/job_slots.hpp), to
// the period's sums, as CloudWatch sums the points of the group's dimension; at the end of
// each metric period the policy sees the datapoint and may set a new desired capacity, which
// reconcile_capacity carries out on unprotected instances only.
#include "src/scaling/job_slots.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

namespace {

// runwarden's [scaling] publish_interval default: one point per instance this often.
constexpr std::int64_t publish_interval_seconds = 10;

bool in_group(const sim_instance& instance) {
  return !instance.gone && instance.lifecycle_state.rfind("Terminat", 0) != 0;
}

// Past its warm-up: InService for the policy's warm-up (it may be terminating since).
bool warmed(const sim_instance& instance, sim_seconds now, const target_tracking_policy& policy) {
  for (const auto& span : instance.lane.lifecycle)
    if (span.state == "InService")
      return now - span.from >= static_cast<double>(policy.instance_warmup.count());
  return false;
}

}  // namespace

void fleet_world::track_target(sim_seconds now) {
  if (scenario_.scaler != group_scaler::target_tracking) return;
  const auto& policy = scenario_.target_tracking;
  const auto second = static_cast<std::int64_t>(now);
  if (second % publish_interval_seconds == 0) {
    for (std::size_t i = 0; i < instances_.size(); ++i) {
      const auto& instance = instances_[i];
      const auto& runner = instance.runner;
      // The publisher runs with runwarden and knows the jobs once the runner is up.
      if (instance.gone || !instance.booted || instance.runwarden_back_at || !runner.alive ||
          runner.gated || !warmed(instance, now, policy))
        continue;
      const bool draining = draining_of && draining_of(i);
      const auto slots =
          job_slots_of(draining ? warden_status::shutting_down : warden_status::running,
                       static_cast<std::uint32_t>(runner.jobs.size()), scenario_.concurrency);
      if (!slots) continue;
      period_slots_busy_ += slots->busy;
      period_slots_total_ += slots->total;
    }
  }
  if (second == 0 || second % policy.metric_period.count() != 0) return;
  tracked_group group{.slots_busy = period_slots_busy_,
                      .slots_total = period_slots_total_,
                      .desired = desired_,
                      .min_size = scenario_.min_size,
                      .max_size = scenario_.max_size};
  for (const auto& instance : instances_) {
    if (!in_group(instance)) continue;
    const bool ready = instance.lifecycle_state == "InService" && warmed(instance, now, policy);
    ++(ready ? group.warmed : group.warming);
  }
  period_slots_busy_ = 0;
  period_slots_total_ = 0;
  const auto decision = runwarden::track_target(target_tracking_, policy, group, now);
  if (decision.desired) set_desired(*decision.desired, now);
}

}  // namespace runwarden
