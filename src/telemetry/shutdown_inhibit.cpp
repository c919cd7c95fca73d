// See shutdown_inhibit.hpp.
#include "src/telemetry/shutdown_inhibit.hpp"

namespace runwarden {

bool runner_may_run_jobs(const warden_snapshot& snapshot) {
  switch (snapshot.status) {
    case warden_status::starting:
    case warden_status::running:
      return true;
    case warden_status::gone:
      return false;
    case warden_status::shutting_down:
      break;
  }
  switch (snapshot.phase) {
    case drain_phase::none:
    case drain_phase::waiting_for_runner:
    case drain_phase::draining:
    case drain_phase::forcing:
    case drain_phase::killing:
      return true;
    case drain_phase::unregistering:
    case drain_phase::completing:
    case drain_phase::done:
      return false;
  }
  return false;
}

std::optional<inhibitor_change> follow_snapshot(shutdown_inhibit_state& state,
                                                const warden_snapshot& snapshot) {
  bool wanted = state.held;
  if (!runner_may_run_jobs(snapshot))
    wanted = false;
  else if (snapshot.jobs_running)
    wanted = *snapshot.jobs_running > 0;
  if (wanted == state.held) return std::nullopt;
  state.held = wanted;
  return wanted ? inhibitor_change::take : inhibitor_change::release;
}

}  // namespace runwarden
