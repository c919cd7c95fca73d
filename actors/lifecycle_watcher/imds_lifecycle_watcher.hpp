#pragma once
// The EC2 lifecycle watcher: its wiring planned from the settings (the metadata endpoint
// resolved from the settings and the environment, a bad one refused with a message naming
// where it came from), for the assembly to start under the instance's tree; and, for tests
// and tools, spawned alone on a production HTTP port of its own.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "actors/lifecycle_watcher/cloud_watcher.hpp"
#include "actors/lifecycle_watcher/lifecycle_watcher_actor.hpp"
#include "caf/all.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/config/settings.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct lifecycle_watcher_plan_result {
  // Its http_port, listener and answered still empty; nullopt with the error when refused.
  std::optional<lifecycle_watcher_wiring> wiring;
  std::string error;
};

// The watcher's wiring for these settings. `environment` is consulted for
// AWS_EC2_METADATA_SERVICE_ENDPOINT only.
lifecycle_watcher_plan_result plan_lifecycle_watcher(const aws_settings& settings,
                                                     const environment_map& environment,
                                                     std::uint64_t random_seed);

// `listener` receives lifecycle_trigger and instance_identity (lifecycle_messages.hpp);
// `answered` is called on every answer of the metadata service (lifecycle_watcher_wiring).
cloud_watcher_spawn_result spawn_lifecycle_watcher(caf::actor_system& system,
                                                   const aws_settings& settings,
                                                   const environment_map& environment,
                                                   lifecycle_watcher_listener_actor listener,
                                                   std::uint64_t random_seed,
                                                   std::function<void()> answered = {});

}  // namespace runwarden
