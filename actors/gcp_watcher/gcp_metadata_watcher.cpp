// See gcp_metadata_watcher.hpp. The settings are checked before any thread or actor exists,
// so that a refusal leaves nothing to clean up.
#include "actors/gcp_watcher/gcp_metadata_watcher.hpp"

#include "actors/http_port/http_port_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
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

cloud_watcher_spawn_result spawn_gcp_watcher(
    caf::actor_system& system, const gcp_settings& settings, const environment_map& environment,
    trigger_listener_actor listener, std::uint64_t random_seed, std::function<void()> answered) {
  if (!listener) return {std::nullopt, "the Google Cloud watcher needs a listener"};
  auto planned = plan_gcp_watcher(settings, environment, random_seed);
  if (!planned.wiring) return {std::nullopt, std::move(planned.error)};
  std::vector<std::shared_ptr<http_worker>> workers{std::make_shared<http_worker>(),
                                                    std::make_shared<http_worker>()};
  std::vector<http_port_actor> ports{system.spawn(http_port, workers[0], nullptr),
                                     system.spawn(http_port, workers[1], nullptr)};
  planned.wiring->preempted_port = ports[0];
  planned.wiring->maintenance_port = ports[1];
  planned.wiring->listener = std::move(listener);
  planned.wiring->answered = std::move(answered);
  auto supervisor = spawn_worker_supervisor(
      system, {{std::string{child_id::gcp_watcher}},
               [wiring = std::move(*planned.wiring)](caf::local_actor* parent) {
                 return caf::actor_cast<caf::actor>(parent->spawn(gcp_watcher_behavior, wiring));
               }});
  return {cloud_watcher{std::move(supervisor), std::move(ports), std::move(workers)}, {}};
}

}  // namespace runwarden
