#pragma once
// An Auto Scaling group's target-tracking policy, as AWS documents it, for simulating a fleet
// scaled by the group on the job slots runwarden publishes (config/aws/target-tracking-policy.json:
// 100 * SUM(JobSlotsBusy) / SUM(JobSlotsTotal) against TargetValue) instead of by runwarden's own
// scaler. Pure: no clock, no random number; the fleet world feeds it one datapoint per metric
// period and applies the desired capacity it returns.
//
// Followed (Amazon EC2 Auto Scaling User Guide, and the pages it links):
// - "Target tracking scaling policies for Amazon EC2 Auto Scaling"
//   (docs.aws.amazon.com/autoscaling/ec2/userguide/as-scaling-target-tracking.html) and
//   "How target tracking scaling for Application Auto Scaling works"
//   (docs.aws.amazon.com/autoscaling/application/userguide/
//   target-tracking-scaling-policy-overview.html):
//   the policy owns two CloudWatch alarms; above the target it adds capacity in proportion to
//   the metric, as fast as it can; below it removes capacity only once the metric is well below
//   the target ("usually more than 10 %"), and never so much that the metric would pass the
//   target. The alarms AWS creates are "AlarmHigh": 3 datapoints of 3 above the target, and
//   "AlarmLow": 15 of 15 below 90 % of it (as the console shows them).
// - "Create a target tracking policy using high-resolution metrics for faster response"
//   (.../ec2/userguide/policy-creating-high-resolution-metrics.html): the metric period may be
//   10, 20, 30 or 60 s; the alarms count datapoints of that period.
// - "Set the default instance warmup for an Auto Scaling group"
//   (.../ec2/userguide/ec2-auto-scaling-default-instance-warmup.html): an instance's usage joins
//   the aggregated metric only once it has been InService for the warm-up; while any instance
//   warms up, a scale-out counts it in the current capacity (so a repeated alarm adds nothing
//   twice) and scale-in is blocked.
// - "Using Amazon CloudWatch alarms" (docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/
//   AlarmThatSendsEmail.html): an alarm acts when its state changes, except that an Auto
//   Scaling action is invoked again once a minute while the alarm stays in ALARM.
// - "Control which Auto Scaling instances terminate during scale in"
//   (.../ec2/userguide/ec2-auto-scaling-instance-protection.html): a lower desired capacity
//   takes only unprotected instances; the fleet world's group does that, not this model.
//
// Simplified, and said so: a datapoint is the ratio of the period's sums with no publishing
// delay; a period with no slot at all (no instance past its warm-up) is a missing datapoint, and
// an alarm changes state only on a full window of present datapoints (TreatMissingData
// "missing" keeps the last state); EC2 target tracking has no cooldown of its own (the warm-up
// does its work), so none is modelled.

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

namespace runwarden {

// The policy's settings (PutScalingPolicy's TargetTrackingConfiguration and
// EstimatedInstanceWarmup), with AWS's alarm shapes as their defaults.
struct target_tracking_policy {
  double target_value = 70;                   // percent of the group's job slots busy
  std::chrono::seconds metric_period{60};     // 10, 20, 30 or 60
  std::chrono::seconds instance_warmup{300};  // EstimatedInstanceWarmup
  bool disable_scale_in = false;              // DisableScaleIn
  std::uint32_t scale_out_datapoints = 3;     // AlarmHigh: this many of this many
  std::uint32_t scale_in_datapoints = 15;     // AlarmLow: likewise
  double scale_in_threshold_share = 0.9;      // AlarmLow's threshold, a share of the target
  std::chrono::seconds action_repeat{60};     // an alarm left in ALARM acts again this often
};

// The group at the end of one metric period.
struct tracked_group {
  std::uint64_t slots_busy = 0;   // SUM(JobSlotsBusy) over the period, warmed instances only
  std::uint64_t slots_total = 0;  // SUM(JobSlotsTotal), the same points
  int desired = 0;                // the group's desired capacity now
  int warmed = 0;                 // instances InService past their warm-up
  int warming = 0;                // instances in the group not yet past it (pending too)
  int min_size = 0;
  int max_size = 0;
};

enum class alarm_state : std::uint8_t { insufficient_data, ok, alarm };

// What the policy has done so far, for the report.
struct target_tracking_books {
  std::uint64_t datapoints = 0;
  std::uint64_t datapoints_missing = 0;
  std::uint64_t scale_outs = 0;
  std::uint64_t scale_ins = 0;
  std::uint64_t scale_ins_blocked_by_warmup = 0;
};

struct target_tracking_state {
  std::deque<std::optional<double>> datapoints;  // percent, newest last; bounded by the window
  alarm_state high = alarm_state::insufficient_data;
  alarm_state low = alarm_state::insufficient_data;
  std::optional<double> high_acted_at;  // virtual seconds of the last action while in ALARM
  std::optional<double> low_acted_at;
  target_tracking_books books;
};

struct target_tracking_decision {
  std::optional<int> desired;  // set: the group's new desired capacity
  std::string reason;          // why, or why nothing (for tests and the log)
};

// One metric period ended at `now` (virtual seconds): adds its datapoint, evaluates both
// alarms, and, when one acts, gives the new desired capacity within [min, max].
target_tracking_decision track_target(target_tracking_state& state,
                                      const target_tracking_policy& policy,
                                      const tracked_group& group, double now);

// The capacity that brings `metric` (percent, measured on `capacity` instances) to the target:
// ceil(capacity * metric / target), as target tracking computes its proportional change.
int capacity_for_target(int capacity, double metric, double target_value);

}  // namespace runwarden
