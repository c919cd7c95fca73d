// See imds_lifecycle_watcher.hpp. The settings are checked before any thread or actor
// exists, so that a refusal leaves nothing to clean up.
#include "actors/lifecycle_watcher/imds_lifecycle_watcher.hpp"

#include "actors/http_port/http_port_actor.hpp"
#include "actors/lifecycle_watcher/lifecycle_watcher_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "src/aws/imds/imds_endpoint.hpp"

namespace runwarden {

cloud_watcher_spawn_result spawn_lifecycle_watcher(caf::actor_system& system,
                                                   const aws_settings& settings,
                                                   const environment_map& environment,
                                                   caf::actor listener,
                                                   std::uint64_t random_seed,
                                                   std::function<void()> answered) {
  if (!listener) return {std::nullopt, "the lifecycle watcher needs a listener"};
  if (settings.poll_interval.count() <= 0)
    return {std::nullopt, "aws.poll_interval must be positive"};
  auto endpoint = resolve_imds_endpoint(settings.imds_endpoint, environment);
  if (!endpoint.error.empty()) return {std::nullopt, std::move(endpoint.error)};
  auto worker = std::make_shared<http_worker>();
  auto port = system.spawn(http_port, worker);
  imds_poller_config poller{.endpoint = std::move(endpoint.endpoint),
                            .policy = settings.watch,
                            .allow_v1_fallback = settings.imds_v1_fallback,
                            .random_seed = random_seed,
                            .scheduled_events_interval = settings.scheduled_events_interval};
  lifecycle_watcher_wiring wiring{.http_port = port,
                                  .listener = std::move(listener),
                                  .poller = std::move(poller),
                                  .poll_interval = settings.poll_interval,
                                  .scheduled_events = settings.scheduled_events,
                                  .answered = std::move(answered)};
  auto supervisor = spawn_worker_supervisor(
      system, {{std::string{lifecycle_watcher_child_id}},
               [wiring = std::move(wiring)](caf::local_actor* parent) {
                 return parent->spawn(lifecycle_watcher_actor, wiring);
               }});
  return {cloud_watcher{std::move(supervisor), {std::move(port)}, {std::move(worker)}}, {}};
}

}  // namespace runwarden
