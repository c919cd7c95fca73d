#pragma once
// `runwarden run`: wires the actor system, the io thread and the ports around the warden,
// then waits until the warden reaches gone and returns the exit code it chose.

#include <cstdint>

#include "src/app/settings.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

// The drain machine's configuration for these settings (the runner kind decides signals).
drain_config make_drain_config(const settings& config, std::uint64_t random_seed);

int run_warden(const settings& config);

}  // namespace runwarden
