// See imds_lifecycle_watcher.hpp. The settings are checked before any thread or actor
// exists, so that a refusal leaves nothing to clean up.
#include "actors/lifecycle_watcher/imds_lifecycle_watcher.hpp"

#include <algorithm>
#include <cstdint>

#include "actors/http_port/http_port_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
#include "src/aws/imds/imds_endpoint.hpp"

namespace runwarden {

namespace {

// The spot pages are read on the first poll at or past their interval: every poll when it
// is no longer than the poll interval.
std::uint32_t spot_every_polls(const aws_settings& settings) {
  const auto polls =
      (settings.spot_poll_interval + settings.poll_interval - std::chrono::milliseconds{1}) /
      settings.poll_interval;
  return static_cast<std::uint32_t>(std::max<std::int64_t>(polls, 1));
}

}  // namespace

lifecycle_watcher_plan_result plan_lifecycle_watcher(const aws_settings& settings,
                                                     const environment_map& environment,
                                                     std::uint64_t random_seed) {
  if (settings.poll_interval.count() <= 0)
    return {std::nullopt, "aws.poll_interval must be positive"};
  auto endpoint = resolve_imds_endpoint(settings.imds_endpoint, environment);
  if (!endpoint.error.empty()) return {std::nullopt, std::move(endpoint.error)};
  imds_poller_config poller{.endpoint = std::move(endpoint.endpoint),
                            .policy = settings.watch,
                            .allow_v1_fallback = settings.imds_v1_fallback,
                            .random_seed = random_seed,
                            .scheduled_events_interval = settings.scheduled_events_interval,
                            .spot_every_polls = spot_every_polls(settings)};
  return {lifecycle_watcher_wiring{.http_port = {},
                                   .listener = {},
                                   .poller = std::move(poller),
                                   .poll_interval = settings.poll_interval,
                                   .scheduled_events = settings.scheduled_events},
          {}};
}

cloud_watcher_spawn_result spawn_lifecycle_watcher(caf::actor_system& system,
                                                   const aws_settings& settings,
                                                   const environment_map& environment,
                                                   lifecycle_watcher_listener_actor listener,
                                                   std::uint64_t random_seed,
                                                   std::function<void()> answered) {
  if (!listener) return {std::nullopt, "the lifecycle watcher needs a listener"};
  auto planned = plan_lifecycle_watcher(settings, environment, random_seed);
  if (!planned.wiring) return {std::nullopt, std::move(planned.error)};
  auto worker = std::make_shared<http_worker>();
  auto port = system.spawn(http_port, worker, nullptr);
  planned.wiring->http_port = port;
  planned.wiring->listener = std::move(listener);
  planned.wiring->answered = std::move(answered);
  auto supervisor = spawn_worker_supervisor(
      system,
      {{std::string{child_id::lifecycle_watcher}},
       [wiring = std::move(*planned.wiring)](caf::local_actor* parent) {
         return caf::actor_cast<caf::actor>(parent->spawn(lifecycle_watcher_behavior, wiring));
       }});
  return {cloud_watcher{std::move(supervisor), {std::move(port)}, {std::move(worker)}}, {}};
}

}  // namespace runwarden
