#pragma once
// The lifecycle hooks actor's look at the group's instance lifecycle policy before it hands
// a terminate hook to the drain: when the group retains an instance whose hook is abandoned
// and the hook abandons at its timeout (src/aws/retention_policy.hpp), the drain may outlast
// the hook, and the action goes over with retained_when_abandoned set.
//
// A failed look (DescribeAutoScalingGroups refused for a missing permission, throttled past
// the client's budget, an answer that cannot be read) must not lose or delay the drain: the
// hook then keeps the drain deadline it always had (the safe side: a job may be cut short at
// the hook's timeout, but the instance never lingers unterminated), said once in the log.

#include <functional>

#include "actors/lifecycle_hooks/hook_calls.hpp"

namespace runwarden {

// Reads the group's policy once and calls `next` with whether a drain may outlast `hook`.
void read_group_retention(hooks_pointer self, const lifecycle_hook& hook,
                          std::function<void(bool retained_when_abandoned)> next);

}  // namespace runwarden
