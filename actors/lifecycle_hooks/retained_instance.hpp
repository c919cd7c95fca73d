#pragma once
// The lifecycle hooks actor's part in instance retention (src/aws/instance_retention.hpp):
// each read of the instance notes whether its group retains it, and a completion that finds
// no active lifecycle action (the hook timed out, or was abandoned, during a long drain)
// reads the instance again; when the group retains it, the runner being gone by then, it
// terminates the instance, since nothing else will and the group does not count it.

#include <functional>
#include <string>

#include "actors/lifecycle_hooks/hook_calls.hpp"

namespace runwarden {

using completion_done = std::function<void(bool confirmed, const std::string& detail)>;

// Sets state.retained (saying so once) when `lifecycle_state` is a retained state.
void note_retention(hooks_pointer self, const std::string& lifecycle_state);

// After "no active lifecycle action" (`detail`): reads the instance and, when retained,
// terminates it (terminate_retained_instance), asked again through throttling, 5xx and lost
// answers until AWS has it; `done` hears (true, ...) then, or at once when not retained, and
// (false, why) when the termination is refused (a missing permission).
void end_if_retained(hooks_pointer self, const std::string& detail, completion_done done);

}  // namespace runwarden
