#pragma once
// The AWS watcher: its wiring planned from the settings (the metadata endpoint
// resolved from the settings and the environment, a bad one refused with a message naming
// where it came from), for the assembly to start under the instance's tree.

#include <cstdint>
#include <optional>
#include <string>

#include "actors/aws_watcher/aws_watcher_actor.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/config/settings.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct aws_watcher_plan_result {
  // Its http_port, listener and answered still empty; nullopt with the error when refused.
  std::optional<aws_watcher_wiring> wiring;
  std::string error;
};

// The watcher's wiring for these settings. `environment` is consulted for
// AWS_EC2_METADATA_SERVICE_ENDPOINT only.
aws_watcher_plan_result plan_aws_watcher(const aws_settings& settings,
                                         const environment_map& environment,
                                         std::uint64_t random_seed);

}  // namespace runwarden
