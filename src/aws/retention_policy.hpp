#pragma once
// Whether an Auto Scaling group retains an instance whose terminate lifecycle action is
// abandoned: its instance lifecycle policy's retention trigger TerminateHookAbandon
// ("retain" or "terminate"), read from the group's DescribeAutoScalingGroups answer
// (<InstanceLifecyclePolicy><RetentionTriggers><TerminateHookAbandon>, as botocore's model
// of AutoScalingGroup has it). With "retain", a hook that times out with the default result
// ABANDON leaves the instance in Terminating:Retained instead of terminating it (the user
// guide's "Control instance retention with instance lifecycle policies"), so a drain may
// outlast the hook's 48 h ceiling: the drain then takes no deadline from the hook.
//
// Pure: the lifecycle hooks actor makes the call and hands the result to the drain machine.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/aws/autoscaling_answers.hpp"

namespace runwarden {

enum class abandon_retention : std::uint8_t { terminate, retain };

struct retention_answer {
  std::optional<abandon_retention> on_abandon;  // set when read; no policy reads as terminate
  std::string error;                            // when set, on_abandon is unset
};

// Reads `group_name`'s trigger from a DescribeAutoScalingGroups answer. A group without a
// policy, triggers or TerminateHookAbandon terminates (AWS's default); a value other than
// the two documented, or an answer without the group, is an error.
retention_answer parse_retention_on_abandon(std::string_view body, std::string_view group_name);

// Whether a drain may outlast `hook`: its group retains on abandon, and the hook's own
// timeout abandons (a DefaultResult of CONTINUE terminates the instance at the timeout,
// whatever the policy says).
bool retained_when_abandoned(abandon_retention on_abandon, const lifecycle_hook& hook);

}  // namespace runwarden
