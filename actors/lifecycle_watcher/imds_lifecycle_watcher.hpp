#pragma once
// The EC2 lifecycle watcher as `runwarden run` would wire it (through spawn_cloud_watcher):
// the watcher actor on a production HTTP port of its own (libcurl on its own worker thread,
// so a slow webhook never delays a poll). spawn_lifecycle_watcher resolves the metadata
// endpoint from the settings and the environment first and refuses a bad one with a message
// naming where it came from.

#include <cstdint>
#include <functional>

#include "actors/lifecycle_watcher/cloud_watcher.hpp"
#include "caf/all.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/config/settings.hpp"

namespace runwarden {

// `listener` receives lifecycle_trigger and instance_identity (lifecycle_messages.hpp);
// `answered` is called on every answer of the metadata service (lifecycle_watcher_wiring).
// `environment` is consulted for AWS_EC2_METADATA_SERVICE_ENDPOINT only.
cloud_watcher_spawn_result spawn_lifecycle_watcher(caf::actor_system& system,
                                                   const aws_settings& settings,
                                                   const environment_map& environment,
                                                   caf::actor listener,
                                                   std::uint64_t random_seed,
                                                   std::function<void()> answered = {});

}  // namespace runwarden
