#pragma once
// The EC2 lifecycle watcher: its wiring planned from the settings (the metadata endpoint
// resolved from the settings and the environment, a bad one refused with a message naming
// where it came from), for the assembly to start under the instance's tree.

#include <cstdint>
#include <optional>
#include <string>

#include "actors/lifecycle_watcher/lifecycle_watcher_actor.hpp"
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

}  // namespace runwarden
