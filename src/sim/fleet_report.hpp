#pragma once
// What one simulated run comes to, for people (text) and for tools (JSON): jobs run and
// killed and why, queue waits, instance-hours, drains by trigger, lifecycle completions,
// API calls, retries and faults, and the invariants' verdicts. Deterministic: the same world gives
// the same bytes.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/sim/fleet_world.hpp"

namespace runwarden {

struct fleet_report {
  std::string scenario;
  std::uint64_t seed = 0;
  std::uint64_t jobs_arrived = 0;
  std::uint64_t jobs_finished = 0;
  std::uint64_t jobs_running_at_end = 0;
  std::uint64_t jobs_queued_at_end = 0;
  std::map<std::string, std::uint64_t> jobs_killed;                   // by reason
  double queue_wait_p50 = 0, queue_wait_p90 = 0, queue_wait_p99 = 0;  // seconds
  double instance_hours = 0;
  std::uint64_t instances_launched = 0;
  std::map<std::string, std::uint64_t> drains_by_trigger;
  std::uint64_t drains_gone = 0;
  std::uint64_t lifecycle_completed = 0;
  std::uint64_t lifecycle_timed_out = 0;
  // CompleteLifecycleAction asked again after the action ended (its answer was lost, say):
  // refused by the group, "no active lifecycle action", so still completed at most once.
  std::uint64_t lifecycle_completions_repeated = 0;
  std::uint64_t spot_interruptions = 0;
  // Runners whose wind-down (unregistration, then the hook's completion) was still retrying
  // through faults when spot took their instance: counted, like jobs killed at a deadline,
  // not a broken invariant.
  std::uint64_t wind_down_at_reclaim = 0;
  std::map<std::string, std::uint64_t> api_calls;  // every call made, failed ones too
  std::map<std::string, std::uint64_t> retries;    // calls after a lost or failed one
  std::map<std::string, std::uint64_t> faults;
  // With group.scaler = "target-tracking" only (so that other reports keep their bytes): the
  // policy's datapoints and the scalings it made.
  std::optional<target_tracking_books> target_tracking;
  std::vector<world_violation> violations;
};

// `drains` holds each instance's drain trigger ("" when it never drained) and whether its
// runwarden reached gone.
fleet_report make_report(const fleet_world& world, std::uint64_t seed,
                         const std::vector<std::pair<std::string, bool>>& drains);

std::string report_text(const fleet_report& report);
std::string report_json(const fleet_report& report);
// The same document on one line, for one line per seed of a range.
std::string report_json_line(const fleet_report& report);

}  // namespace runwarden
