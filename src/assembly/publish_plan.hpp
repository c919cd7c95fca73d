#pragma once
// [scaling] publish as `runwarden run` starts it: the CloudWatch client (the Auto Scaling
// client's actor with CloudWatch's names, sharing the credentials chain and region) and the
// metrics publisher, its points counted in /metrics. Peers are left for the assembly.

#include <cstdint>
#include <memory>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "actors/metrics_publisher/metrics_publisher_actor.hpp"
#include "src/config/settings.hpp"
#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

// Like the Auto Scaling client's wiring, for CloudWatch. An attempt may take up to an
// interval, no longer: a point is worth nothing once the next one is due.
autoscaling_client_wiring cloudwatch_client_wiring(const autoscaling_client_wiring& autoscaling,
                                                   const scaling_settings& scaling,
                                                   std::uint64_t random_seed);

metrics_publisher_wiring wire_publisher(const scaling_settings& scaling, std::uint32_t capacity,
                                        std::shared_ptr<metrics_registry> metrics);

}  // namespace runwarden
