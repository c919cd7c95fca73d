#pragma once
// The Google Cloud watcher: its wiring planned from the settings (the metadata endpoint
// resolved from the settings and the environment, a bad one refused with a message naming
// where it came from), for the assembly to start under the instance's tree with two HTTP
// ports, one per watched key, since each holds a hanging GET.

#include <cstdint>
#include <optional>
#include <string>

#include "actors/gcp_watcher/gcp_watcher_actor.hpp"
#include "src/config/settings.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct gcp_watcher_plan_result {
  // Its ports, listener and answered still empty; nullopt with the error when refused.
  std::optional<gcp_watcher_wiring> wiring;
  std::string error;
};

// `environment` is consulted for GCE_METADATA_HOST.
gcp_watcher_plan_result plan_gcp_watcher(const gcp_settings& settings,
                                         const environment_map& environment,
                                         std::uint64_t random_seed);

}  // namespace runwarden
