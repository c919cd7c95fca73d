// See publish_plan.hpp.
#include "src/assembly/publish_plan.hpp"

#include <algorithm>

#include "src/logging/logging.hpp"

namespace runwarden {

autoscaling_client_wiring cloudwatch_client_wiring(const autoscaling_client_wiring& autoscaling,
                                                   const scaling_settings& scaling,
                                                   std::uint64_t random_seed) {
  auto wiring = autoscaling;
  wiring.service = cloudwatch_query_service;
  wiring.attempt_timeout = scaling.publish_interval;
  // Throttling is retried inside the interval: a short first wait, a cap well under it.
  wiring.retry_initial = std::chrono::milliseconds{200};
  wiring.retry_max = std::max(std::chrono::milliseconds{200}, scaling.publish_interval / 4);
  wiring.random_seed = random_seed;
  return wiring;
}

metrics_publisher_wiring wire_publisher(const scaling_settings& scaling, std::uint32_t capacity,
                                        std::shared_ptr<metrics_registry> metrics) {
  warden_logger()->info(
      "cloudwatch: job slots (busy, total of {}) go to namespace {} every "
      "{}s",
      capacity, scaling.publish_namespace, scaling.publish_interval.count() / 1000.0);
  return metrics_publisher_wiring{
      .metric_namespace = scaling.publish_namespace,
      .interval = scaling.publish_interval,
      .capacity = capacity,
      .autoscaling_client = {},
      .cloudwatch_client = {},
      .warden = {},
      .observer = [metrics](publish_outcome outcome, std::uint64_t points) {
        metrics->count_published_points(outcome, points);
      }};
}

}  // namespace runwarden
