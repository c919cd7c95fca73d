#pragma once
// The metrics publisher ([scaling] publish = "cloudwatch"): every interval it sends
// this runner's job slots, busy and total (src/scaling/job_slots.hpp), to CloudWatch as two
// high-resolution datums with the dimension AutoScalingGroupName, in one PutMetricData. The
// group's target-tracking policy (config/aws/target-tracking-policy.json) scales on
// SUM(busy) / SUM(total) over the group.
//
// Bounded: a point is tried within its interval only (the CloudWatch client retries
// throttling and 5xx with backoff inside that budget); one not sent by then is dropped, and
// a tick that finds the previous call still under way drops its own point. Every point is
// counted by outcome (publish_outcome, for /metrics). Nothing waits for it: it only
// subscribes to the warden's status and is never asked anything, so a CloudWatch that hangs
// or refuses never delays a drain. It keeps publishing through a drain (a draining runner
// offers no free slot; its running jobs still count) and stops once the runner is gone.
//
// The group comes from the warden's snapshot when the lifecycle hooks actor has found it,
// else from DescribeAutoScalingInstances for this instance, through the Auto Scaling client.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "caf/all.hpp"
#include "messages/autoscaling_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/telemetry/metric_labels.hpp"

namespace runwarden {

inline constexpr std::string_view job_slots_busy_metric = "JobSlotsBusy";
inline constexpr std::string_view job_slots_total_metric = "JobSlotsTotal";
inline constexpr std::string_view group_dimension = "AutoScalingGroupName";

struct metrics_publisher_wiring {
  std::string metric_namespace = "Runwarden";
  std::chrono::milliseconds interval{std::chrono::seconds{10}};
  std::uint32_t capacity = 1;                   // the runner's job slots, resolved at start
  autoscaling_client_actor autoscaling_client;  // finds the group
  autoscaling_client_actor cloudwatch_client;   // sends the points
  status_source_actor warden;                   // subscribed to for warden_snapshot
  // The points' timestamps: CloudWatch files a datum under the time it carries.
  std::function<std::chrono::system_clock::time_point()> wall_clock = [] {
    return std::chrono::system_clock::now();
  };
  std::function<void(publish_outcome, std::uint64_t points)> observer = {};  // may be empty
};

struct metrics_publisher_state {
  static inline const char* name = "metrics_publisher";
  metrics_publisher_wiring wiring;
  warden_status status = warden_status::starting;
  std::optional<std::uint32_t> jobs_running;
  std::optional<std::string> group_name;
  bool finding_group = false;
  bool call_in_flight = false;
  bool stopped = false;                         // the runner is gone: nothing more to publish
  std::optional<publish_outcome> last_outcome;  // failures are logged when the outcome changes
};

// (metrics_publisher_tick_atom) when the next point is due.
using metrics_publisher_tick_atom = caf::atom_constant<caf::atom("pubtick")>;
using metrics_publisher_implementation =
    status_subscriber_actor::extend<caf::reacts_to<metrics_publisher_tick_atom>>;

metrics_publisher_implementation::behavior_type metrics_publisher_behavior(
    metrics_publisher_implementation::stateful_pointer<metrics_publisher_state> self,
    metrics_publisher_wiring wiring);

}  // namespace runwarden
