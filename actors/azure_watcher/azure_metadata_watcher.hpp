#pragma once
// The Azure watcher: its wiring planned from the settings (the endpoint checked first, a bad
// one refused with a message naming the key), for the assembly to start under the
// instance's tree.

#include <cstdint>
#include <optional>
#include <string>

#include "actors/azure_watcher/azure_watcher_actor.hpp"
#include "src/config/settings.hpp"

namespace runwarden {

struct azure_watcher_plan_result {
  // Its http_port, listener and answered still empty; nullopt with the error when refused.
  std::optional<azure_watcher_wiring> wiring;
  std::string error;
};

azure_watcher_plan_result plan_azure_watcher(const azure_settings& settings,
                                             std::uint64_t random_seed);

}  // namespace runwarden
