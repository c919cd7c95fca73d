#pragma once
// Which lifecycle hook runwarden answers, and when that hook gives up waiting. Pure: the
// lifecycle hooks actor reads the instance and the group's hooks through the Auto Scaling
// client and asks these functions what they mean.
//
// An instance in Terminating:Wait (Pending:Wait) waits for every terminate (launch) hook of
// its group. runwarden answers exactly one of each: the one named in its setting
// (aws.lifecycle_hook, aws.launch_hook), else the group's only one. With several and none
// named it answers none (they may belong to other tools, and completing another tool's hook
// would cut its work short) and says so.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/aws/autoscaling_answers.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

inline constexpr std::string_view terminating_transition = "autoscaling:EC2_INSTANCE_TERMINATING";
inline constexpr std::string_view launching_transition = "autoscaling:EC2_INSTANCE_LAUNCHING";
// AWS's own ceiling on any lifecycle action: 48 hours or 100 heartbeat timeouts, whichever
// is smaller, whatever the hook's GlobalTimeout says.
inline constexpr std::chrono::hours lifecycle_action_hours_max{48};
inline constexpr int lifecycle_action_heartbeats_max = 100;

// Where an instance stands with its terminate hooks, from its LifecycleState.
enum class terminate_wait {
  waiting,      // Terminating:Wait: the hooks wait for an answer
  not_yet,      // InService or Terminating: the API may lag the metadata; look again soon
  past,         // Terminating:Proceed, Terminated: the hooks are answered or timed out
  not_leaving,  // Pending*, Standby, Detaching, Warmed:*: no terminate hook applies
  retained,     // Terminating:Retained (instance_retention.hpp): the hooks were abandoned and
                // the group keeps the instance until it is terminated
};

terminate_wait terminate_wait_of(std::string_view lifecycle_state);

struct hook_choice {
  std::optional<lifecycle_hook> hook;  // unset with an empty problem: no terminate hook at all
  std::string problem;                 // why none was chosen, for an error in the log
};

// `setting` names the config key in problems.
hook_choice choose_hook(const std::vector<lifecycle_hook>& hooks, std::string_view transition,
                        const std::optional<std::string>& configured_name,
                        std::string_view setting);

// The action as the drain machine keeps it. The hook started at most `seen_late_by` before
// `now` (the watcher's poll interval plus the lookup), so its end is counted from then.
lifecycle_action lifecycle_action_for(const lifecycle_hook& hook, instant now,
                                      duration seen_late_by);

}  // namespace runwarden
