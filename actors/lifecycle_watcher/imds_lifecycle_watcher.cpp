// See imds_lifecycle_watcher.hpp. The settings are checked before any thread or actor
// exists, so that a refusal leaves nothing to clean up.
#include "actors/lifecycle_watcher/imds_lifecycle_watcher.hpp"

#include "actors/http_port/http_port_actor.hpp"
#include "actors/lifecycle_watcher/lifecycle_watcher_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"

namespace runwarden {

imds_lifecycle_watcher::imds_lifecycle_watcher(caf::actor supervisor, http_port_actor port,
                                               std::shared_ptr<http_worker> worker)
    : supervisor_(std::move(supervisor)), port_(std::move(port)), worker_(std::move(worker)) {}

void imds_lifecycle_watcher::stop() {
  if (supervisor_) caf::anon_send_exit(supervisor_, caf::exit_reason::user_shutdown);
  if (port_) caf::anon_send_exit(port_, caf::exit_reason::user_shutdown);
  if (worker_) worker_->stop();
}

lifecycle_watcher_plan_result plan_lifecycle_watcher(const aws_settings& settings,
                                                     const environment_map& environment,
                                                     std::uint64_t random_seed) {
  if (settings.provider == lifecycle_provider::none) return {std::nullopt, {}};
  if (settings.poll_interval.count() <= 0)
    return {std::nullopt, "aws.poll_interval must be positive"};
  auto endpoint = resolve_imds_endpoint(settings.imds_endpoint, environment);
  if (!endpoint.error.empty()) return {std::nullopt, std::move(endpoint.error)};
  imds_poller_config poller{.endpoint = std::move(endpoint.endpoint),
                            .policy = settings.watch,
                            .allow_v1_fallback = settings.imds_v1_fallback,
                            .random_seed = random_seed};
  return {lifecycle_watcher_wiring{.http_port = {},
                                   .listener = {},
                                   .poller = std::move(poller),
                                   .poll_interval = settings.poll_interval},
          {}};
}

lifecycle_watcher_spawn_result spawn_lifecycle_watcher(caf::actor_system& system,
                                                       const aws_settings& settings,
                                                       const environment_map& environment,
                                                       caf::actor listener,
                                                       std::uint64_t random_seed,
                                                       std::function<void()> answered) {
  if (settings.provider == lifecycle_provider::none) return {std::nullopt, {}};
  if (!listener) return {std::nullopt, "the lifecycle watcher needs a listener"};
  auto planned = plan_lifecycle_watcher(settings, environment, random_seed);
  if (!planned.wiring) return {std::nullopt, std::move(planned.error)};
  auto worker = std::make_shared<http_worker>();
  auto port = system.spawn(http_port, worker);
  planned.wiring->http_port = port;
  planned.wiring->listener = std::move(listener);
  planned.wiring->answered = std::move(answered);
  auto supervisor = spawn_worker_supervisor(
      system, {{std::string{lifecycle_watcher_child_id}},
               [wiring = std::move(*planned.wiring)](caf::local_actor* parent) {
                 return parent->spawn(lifecycle_watcher_actor, wiring);
               }});
  return {imds_lifecycle_watcher{std::move(supervisor), std::move(port), std::move(worker)}, {}};
}

}  // namespace runwarden
