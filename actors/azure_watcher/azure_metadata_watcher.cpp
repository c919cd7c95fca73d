// See azure_metadata_watcher.hpp. The settings are checked before any thread or actor
// exists, so that a refusal leaves nothing to clean up.
#include "actors/azure_watcher/azure_metadata_watcher.hpp"

#include "actors/http_port/http_port_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
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

cloud_watcher_spawn_result spawn_azure_watcher(caf::actor_system& system,
                                               const azure_settings& settings,
                                               azure_watcher_listener_actor listener,
                                               std::uint64_t random_seed,
                                               std::function<void()> answered) {
  if (!listener) return {std::nullopt, "the Azure watcher needs a listener"};
  auto planned = plan_azure_watcher(settings, random_seed);
  if (!planned.wiring) return {std::nullopt, std::move(planned.error)};
  auto worker = std::make_shared<http_worker>();
  auto port = system.spawn(http_port, worker, nullptr);
  planned.wiring->http_port = port;
  planned.wiring->listener = std::move(listener);
  planned.wiring->answered = std::move(answered);
  auto supervisor = spawn_worker_supervisor(
      system, {{std::string{child_id::azure_watcher}},
               [wiring = std::move(*planned.wiring)](caf::local_actor* parent) {
                 return caf::actor_cast<caf::actor>(parent->spawn(azure_watcher_behavior, wiring));
               }});
  return {cloud_watcher{std::move(supervisor), {std::move(port)}, {std::move(worker)}}, {}};
}

}  // namespace runwarden
