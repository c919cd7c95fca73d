#pragma once
// The lifecycle hooks actor's part in instance retention (src/aws/instance_retention.hpp):
// each read of the instance notes whether its group retains it, and a completion that finds
// no active lifecycle action (the hook timed out, or was abandoned, during a long drain)
// reads the instance again. When the group retains it, the completion says so to the warden
// (lifecycle_action_completed's instance_retained), which has the instance end
// (actors/instance_end) terminate it once the runner is gone: one actor ends instances.

#include <functional>
#include <string>

#include "actors/lifecycle_hooks/hook_calls.hpp"

namespace runwarden {

using completion_done = std::function<void(bool confirmed, const std::string& detail)>;

// Sets state.retained (saying so once) when `lifecycle_state` is a retained state.
void note_retention(hooks_pointer self, const std::string& lifecycle_state);

// After "no active lifecycle action" (`detail`): reads the instance, asked again through
// throttling, 5xx and lost answers, so that state.retained is current; `done` hears
// (true, ...) then, or once the read is refused for good.
void read_retention(hooks_pointer self, const std::string& detail, completion_done done);

}  // namespace runwarden
