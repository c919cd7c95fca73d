// See azure_metadata_watcher.hpp. The settings are checked before the watcher is planned, so
// that a refusal leaves nothing to start or clean up.
#include "actors/azure_watcher/azure_metadata_watcher.hpp"

#include "src/azure/azure_metadata_endpoint.hpp"

namespace runwarden {

azure_watcher_plan_result plan_azure_watcher(const azure_settings& settings,
                                             std::uint64_t random_seed) {
  auto endpoint = resolve_azure_metadata_endpoint(settings.metadata_endpoint);
  if (!endpoint.error.empty()) return {std::nullopt, std::move(endpoint.error)};
  return {azure_watcher_wiring{.http_port = {},
                               .listener = {},
                               .endpoint = std::move(endpoint.endpoint),
                               .poll_interval = settings.poll_interval,
                               .policy = settings.events,
                               .random_seed = random_seed},
          {}};
}

}  // namespace runwarden
