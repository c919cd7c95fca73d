// See gcp_metadata_watcher.hpp. The settings are checked before the watcher is planned, so
// that a refusal leaves nothing to start or clean up.
#include "actors/gcp_watcher/gcp_metadata_watcher.hpp"

#include "src/gcp/gcp_metadata_endpoint.hpp"

namespace runwarden {

gcp_watcher_plan_result plan_gcp_watcher(const gcp_settings& settings,
                                         const environment_map& environment,
                                         std::uint64_t random_seed) {
  auto endpoint = resolve_gcp_metadata_endpoint(settings.metadata_endpoint, environment);
  if (!endpoint.error.empty()) return {std::nullopt, std::move(endpoint.error)};
  return {gcp_watcher_wiring{.preempted_port = {},
                             .maintenance_port = {},
                             .listener = {},
                             .endpoint = std::move(endpoint.endpoint),
                             .wait_timeout = settings.wait_timeout,
                             .notices = settings.notices,
                             .random_seed = random_seed},
          {}};
}

}  // namespace runwarden
