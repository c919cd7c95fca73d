#pragma once
// The Azure watcher: its wiring planned from the settings (the endpoint checked first, a bad
// one refused with a message naming the key), for the assembly to start under the
// instance's tree; and, for tests and tools, spawned alone on a production HTTP port.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "actors/azure_watcher/azure_watcher_actor.hpp"
#include "actors/lifecycle_watcher/cloud_watcher.hpp"
#include "caf/all.hpp"
#include "src/config/settings.hpp"

namespace runwarden {

struct azure_watcher_plan_result {
  // Its http_port, listener and answered still empty; nullopt with the error when refused.
  std::optional<azure_watcher_wiring> wiring;
  std::string error;
};

azure_watcher_plan_result plan_azure_watcher(const azure_settings& settings,
                                             std::uint64_t random_seed);

// `listener` receives lifecycle_trigger, lifecycle_action_pending and
// lifecycle_action_completed; `answered` is called on every answer of the metadata service.
cloud_watcher_spawn_result spawn_azure_watcher(caf::actor_system& system,
                                               const azure_settings& settings,
                                               azure_watcher_listener_actor listener,
                                               std::uint64_t random_seed,
                                               std::function<void()> answered = {});

}  // namespace runwarden
