// See aws_metadata_watcher.hpp. The settings are checked before the watcher is planned, so
// that a refusal leaves nothing to start or clean up.
#include "actors/aws_watcher/aws_metadata_watcher.hpp"

#include <algorithm>
#include <cstdint>

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

aws_watcher_plan_result plan_aws_watcher(const aws_settings& settings,
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
  return {aws_watcher_wiring{.http_port = {},
                             .listener = {},
                             .poller = std::move(poller),
                             .poll_interval = settings.poll_interval,
                             .scheduled_events = settings.scheduled_events},
          {}};
}

}  // namespace runwarden
