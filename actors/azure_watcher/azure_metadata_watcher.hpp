#pragma once
// The Azure watcher as `runwarden run` wires it (through spawn_cloud_watcher): the watcher
// actor under a supervisor of its own, on a production HTTP port of its own. The endpoint
// is checked first and a bad one refused with a message naming the key.

#include <cstdint>
#include <functional>

#include "actors/lifecycle_watcher/cloud_watcher.hpp"
#include "caf/all.hpp"
#include "src/config/settings.hpp"

namespace runwarden {

// `listener` receives lifecycle_trigger, lifecycle_action_pending and
// lifecycle_action_completed; `answered` is called on every answer of the metadata service.
cloud_watcher_spawn_result spawn_azure_watcher(caf::actor_system& system,
                                               const azure_settings& settings,
                                               caf::actor listener, std::uint64_t random_seed,
                                               std::function<void()> answered = {});

}  // namespace runwarden
