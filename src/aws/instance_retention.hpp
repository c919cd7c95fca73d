#pragma once
// Instance retention: an Auto Scaling group whose instance lifecycle policy has the retention
// trigger TerminateHookAbandon = retain keeps an instance whose terminate lifecycle action
// was abandoned (CompleteLifecycleAction ABANDON, or a timeout with the hook's default result
// ABANDON, the 48 h ceiling included) instead of terminating it. The instance then stays
// Terminating:Retained, outside the desired capacity (the group launched its replacement),
// and is billed until someone calls TerminateInstanceInAutoScalingGroup (the user guide's
// "Control instance retention with instance lifecycle policies" and "Manage retained
// instances"; the API reference's RetentionTriggers). It is AWS's answer for drains longer
// than a hook can wait; runwarden is that someone once the runner is gone.
//
// Pure: the lifecycle hooks actor reads the LifecycleState, and the instance end
// (actors/instance_end) makes the call once the runner is gone.

#include <string>
#include <string_view>

#include "src/aws/autoscaling_requests.hpp"

namespace runwarden {

inline constexpr std::string_view terminating_retained_state = "Terminating:Retained";

// True for the retained states: Terminating:Retained, and a warm pool's
// Warmed:Pending:Retained and Warmed:Terminating:Retained.
bool is_retained_state(std::string_view lifecycle_state);

// The call that ends a retained instance. Without decrementing the desired capacity: a
// retained instance no longer counts in it, so a decrement would shrink the group by one
// more instance than leaves.
autoscaling_call terminate_retained_instance(const std::string& instance_id);

}  // namespace runwarden
