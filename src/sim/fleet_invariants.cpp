// See fleet_invariants.hpp.
#include "src/sim/fleet_invariants.hpp"

#include <array>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

using enum fleet_invariant;

constexpr std::array<fleet_invariant_row, 16> rows{{
    {job_killed_early, "job_killed_early",
     "runwarden's forceful signal never kills a job before the drain deadline it published"},
    {runner_started_in_drain, "runner_started_in_drain",
     "no fresh runner starts once a drain has begun"},
    {two_runners, "two_runners", "one runner at a time per instance"},
    {status_backwards, "status_backwards",
     "a warden's status only moves forward: starting, running, shutting_down, gone"},
    {left_registered, "left_registered",
     "no runner stays registered with its CI server after its instance went, unless faults "
     "kept its unregistration retrying"},
    {hook_not_completed, "hook_not_completed",
     "a terminate hook is completed soon after its runner exited"},
    {event_not_approved, "event_not_approved",
     "an Azure Scheduled Event is approved soon after its runner exited"},
    {hook_timed_out_running, "hook_timed_out_running",
     "no terminate hook (Azure event) runs out while its runner still runs, when no fault "
     "could have held runwarden up"},
    {completed_before_gone, "completed_before_gone",
     "a terminate hook is completed only once its runner is gone and unregistered"},
    {approved_before_gone, "approved_before_gone",
     "an Azure event is approved only once its runner is gone and unregistered"},
    {approved_by_another, "approved_by_another",
     "a runwarden approves only its own instance's Azure event"},
    {capacity_out_of_bounds, "capacity_out_of_bounds",
     "the group's desired capacity stays within its minimum and maximum"},
    {drain_not_finished, "drain_not_finished",
     "with the faults over, a drain with time to spare ends"},
    {runner_started_after_retirement, "runner_started_after_retirement",
     "no runner starts on an instance once its retirement was decided, a runwarden restarted "
     "from its journal included"},
    {retirement_not_ended, "retirement_not_ended",
     "an instance whose retirement was decided is terminated within retirement_end_bound of "
     "the decision (of the faults' end, when they outlast it)"},
    {job_killed_by_retirement, "job_killed_by_retirement",
     "no job is killed by a retirement: neither by its drain's signal nor by the instance's "
     "end it asks for"},
}};

}  // namespace

std::span<const fleet_invariant_row> fleet_invariants() { return rows; }

std::string_view name_of(fleet_invariant invariant) {
  const auto& row = rows[static_cast<std::size_t>(invariant)];
  RUNWARDEN_ASSERT(row.invariant == invariant);
  return row.name;
}

}  // namespace runwarden
