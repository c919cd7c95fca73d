#pragma once
// The invariants a simulated run is judged by, listed in one place with what each means. The
// checker (fleet_checker) judges them from the facts the world reports; a report names a
// broken one by its name (the texts below, stable: tools and regression notes match them).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace runwarden {

enum class fleet_invariant : std::uint8_t {
  job_killed_early,
  runner_started_in_drain,
  two_runners,
  status_backwards,
  left_registered,
  hook_not_completed,
  event_not_approved,
  hook_timed_out_running,
  completed_before_gone,
  approved_before_gone,
  approved_by_another,
  capacity_out_of_bounds,
  drain_not_finished,
  runner_started_after_retirement,
  retirement_not_ended,
  job_killed_by_retirement,
};

struct fleet_invariant_row {
  fleet_invariant invariant;
  std::string_view name;     // as reports print it
  std::string_view meaning;  // what holding it promises
};

// Every invariant, in the enum's order.
std::span<const fleet_invariant_row> fleet_invariants();
std::string_view name_of(fleet_invariant invariant);

// One broken invariant, as a report lists it.
struct world_violation {
  double at = 0;          // virtual seconds
  std::string invariant;  // name_of() the invariant: "job_killed_early", ...
  std::string detail;
};

}  // namespace runwarden
