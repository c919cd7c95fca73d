#pragma once
// What a simulated instance's runwarden is given, held in memory: the settings an operator
// would write for it, its environment (the Auto Scaling API's address, credentials and
// region), the runner it unregisters. The simulation plans each instance from these with
// production's own planning (src/assembly/instance_planning), so every seed runs it; only
// the ports are the simulation's.

#include <cstdint>

#include "src/assembly/instance_inputs.hpp"
#include "src/sim/fleet_scenario.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

// `broken`: the test-only runner whose graceful signal is already the forceful one
// (fleet_run_options::broken_force_at_once).
instance_inputs sim_inputs(const fleet_scenario& scenario, const sim_instance& instance,
                           bool broken);

}  // namespace runwarden
