#pragma once
// What the terminate and launch sides of the lifecycle hooks actor share: calls through the
// Auto Scaling client with the actor's budget, backoff draws, and reading this instance
// (its id from the client's identity, then its group and LifecycleState).

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"
#include "messages/warden_messages.hpp"
// after warden_messages.hpp (drain_machine.hpp before the request builders)
#include "messages/autoscaling_messages.hpp"
#include "src/aws/lifecycle_hook_choice.hpp"

namespace runwarden {

using hooks_pointer = lifecycle_hooks_implementation::stateful_pointer<lifecycle_hooks_state>;
using failure_handler = std::function<void(const autoscaling_failure&)>;
using outcome_handler = std::function<void(const autoscaling_outcome&)>;

instant now_of(hooks_pointer self);

// The wait after `failures` failures in a row: capped exponential, jittered.
std::chrono::nanoseconds backoff(hooks_pointer self, std::uint32_t failures);

// One call through the client; `on_outcome` sees its outcome, a lost answer as a
// retry_with_backoff failure.
void call(hooks_pointer self, autoscaling_call request, outcome_handler on_outcome);

// The LifecycleState read_instance passes on for an instance in no Auto Scaling group.
inline constexpr std::string_view not_in_a_group = "(in no Auto Scaling group)";

// Learns the instance id (once), then its group (kept) and LifecycleState (passed on).
void read_instance(hooks_pointer self, std::function<void(const std::string&)> next,
                   failure_handler failed);

lifecycle_action_target target_of(hooks_pointer self, const std::string& hook_name);

// Runs `later` after `wait`, in virtual time under the test coordinator.
void run_later(hooks_pointer self, std::chrono::nanoseconds wait, std::function<void()> later);
void on_run_later(hooks_pointer self, std::uint64_t id);

// Reads the group's hooks and chooses the one of `transition` (lifecycle_hook_choice.hpp).
void read_hook(hooks_pointer self, std::string_view transition,
               const std::optional<std::string>& configured, std::string_view setting,
               std::function<void(const hook_choice&)> chosen, failure_handler failed);

// CompleteLifecycleAction, asked again through throttling, 5xx and lost answers until AWS
// has it; `done` hears (true, ...) once accepted or answered "no active lifecycle action",
// (false, why) when refused (a missing permission, a bad request).
void complete_hook(hooks_pointer self, const std::string& hook_name, lifecycle_action_result result,
                   std::function<void(bool confirmed, const std::string& detail)> done);

// RecordLifecycleActionHeartbeat, asked again through throttling, 5xx and lost answers up to
// heartbeat_attempts_max times; a refusal or "no active lifecycle action" is not.
void record_heartbeat(hooks_pointer self, const std::string& hook_name);

}  // namespace runwarden
