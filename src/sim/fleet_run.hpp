#pragma once
// One seed of a fleet simulation: a CAF actor system on the deterministic test coordinator
// (one thread, virtual time), the fleet world, and on every instance that boots the
// instance runwarden run builds, planned by the same planning
// (src/assembly/instance_planning, from inputs held in memory: sim_inputs) and started by the
// same assembly (src/assembly/instance): the warden and every worker under its supervisor
// (unregistration, notifier, metrics poller, the cloud's watcher, lifecycle hooks, and the
// scaler when the scenario scales) on the simulated ports. Each runwarden's journal is kept in
// memory: one that crashes comes back from it, as runwarden run does from its state directory. The
// world ticks once a virtual second; between ticks the coordinator delivers every message and fires
// every timer in time order, so the same seed always gives the same run.

#include <cstdint>
#include <optional>
#include <string>

#include "src/sim/fleet_report.hpp"
#include "src/sim/fleet_scenario.hpp"
#include "src/sim/fleet_timeline.hpp"

namespace runwarden {

struct fleet_run_options {
  std::uint64_t seed = 1;
  std::string journal_file = {};      // non-empty: one instance's journal is written there
  std::string journal_instance = {};  // its id ("i-000003"); empty: the first instance
  // Test-only: a coordinator that forces the runner as soon as it drains, to prove the
  // invariants catch a broken drain.
  bool broken_force_at_once = false;
  // runwarden's own log for the run (every instance's, interleaved); off by default.
  std::string log_level = "off";
};

struct fleet_run_result {
  fleet_report report;
  fleet_timeline timeline;
  std::string error;  // the run could not be made (a journal that cannot be written)
};

fleet_run_result run_fleet(const fleet_scenario& scenario, const fleet_run_options& options);

}  // namespace runwarden
