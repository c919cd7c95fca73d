#pragma once
// The Google Cloud watcher as `runwarden run` wires it (through spawn_cloud_watcher): the
// watcher actor under a supervisor of its own, with two production HTTP ports, one per
// watched key, since each holds a hanging GET. The metadata endpoint is resolved from the
// settings and the environment first, and a bad one refused with a message naming where it
// came from.

#include <cstdint>
#include <functional>

#include "actors/lifecycle_watcher/cloud_watcher.hpp"
#include "caf/all.hpp"
#include "src/config/settings.hpp"

namespace runwarden {

// `listener` receives lifecycle_trigger. `environment` is consulted for GCE_METADATA_HOST.
// `answered` is called on every answer of the metadata server.
cloud_watcher_spawn_result spawn_gcp_watcher(caf::actor_system& system,
                                             const gcp_settings& settings,
                                             const environment_map& environment,
                                             caf::actor listener, std::uint64_t random_seed,
                                             std::function<void()> answered = {});

}  // namespace runwarden
