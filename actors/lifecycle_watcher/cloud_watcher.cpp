// See cloud_watcher.hpp.
#include "actors/lifecycle_watcher/cloud_watcher.hpp"

#include "actors/azure_watcher/azure_metadata_watcher.hpp"
#include "actors/gcp_watcher/gcp_metadata_watcher.hpp"
#include "actors/lifecycle_watcher/imds_lifecycle_watcher.hpp"
#include "src/aws/imds/imds_endpoint.hpp"
#include "src/azure/azure_metadata_endpoint.hpp"
#include "src/gcp/gcp_metadata_endpoint.hpp"

namespace runwarden {

cloud_watcher::cloud_watcher(caf::actor supervisor, std::vector<http_port_actor> ports,
                             std::vector<std::shared_ptr<http_worker>> workers)
    : supervisor_(std::move(supervisor)), ports_(std::move(ports)), workers_(std::move(workers)) {}

void cloud_watcher::stop() {
  if (supervisor_) caf::anon_send_exit(supervisor_, caf::exit_reason::user_shutdown);
  for (const auto& port : ports_)
    if (port) caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
  for (const auto& worker : workers_) worker->stop();
}

std::string cloud_watcher_problem(const settings& config, const environment_map& environment) {
  switch (config.cloud.provider) {
    case cloud_provider::none: return {};
    case cloud_provider::aws:
      return resolve_imds_endpoint(config.aws.imds_endpoint, environment).error;
    case cloud_provider::azure:
      return resolve_azure_metadata_endpoint(config.azure.metadata_endpoint).error;
    case cloud_provider::gcp:
      return resolve_gcp_metadata_endpoint(config.gcp.metadata_endpoint, environment).error;
    case cloud_provider::detect: break;  // resolved before, by detect_cloud
  }
  return "cloud.provider \"auto\" was not resolved before the watcher was started";
}

cloud_watcher_spawn_result spawn_cloud_watcher(caf::actor_system& system, const settings& config,
                                               const environment_map& environment,
                                               caf::actor listener, std::uint64_t random_seed,
                                               std::function<void()> answered) {
  switch (config.cloud.provider) {
    case cloud_provider::none: return {};
    case cloud_provider::aws:
      return spawn_lifecycle_watcher(system, config.aws, environment, std::move(listener),
                                     random_seed, std::move(answered));
    case cloud_provider::azure:
      return spawn_azure_watcher(system, config.azure, std::move(listener), random_seed,
                                 std::move(answered));
    case cloud_provider::gcp:
      return spawn_gcp_watcher(system, config.gcp, environment, std::move(listener), random_seed,
                               std::move(answered));
    case cloud_provider::detect: break;  // resolved before, by detect_cloud
  }
  return {std::nullopt, "cloud.provider \"auto\" was not resolved before the watcher was started"};
}

}  // namespace runwarden
