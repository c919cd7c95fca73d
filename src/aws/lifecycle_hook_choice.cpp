// See lifecycle_hook_choice.hpp.
#include "src/aws/lifecycle_hook_choice.hpp"

#include <algorithm>

namespace runwarden {

terminate_wait terminate_wait_of(std::string_view lifecycle_state) {
  if (lifecycle_state == "Terminating:Wait") return terminate_wait::waiting;
  if (lifecycle_state == "InService" || lifecycle_state == "Terminating")
    return terminate_wait::not_yet;
  if (lifecycle_state == "Terminating:Proceed" || lifecycle_state == "Terminated")
    return terminate_wait::past;
  return terminate_wait::not_leaving;
}

hook_choice choose_terminate_hook(const std::vector<lifecycle_hook>& hooks,
                                  const std::optional<std::string>& configured_name) {
  std::vector<const lifecycle_hook*> terminating;
  for (const auto& hook : hooks)
    if (hook.transition == terminating_transition) terminating.push_back(&hook);
  if (configured_name) {
    for (const auto* hook : terminating)
      if (hook->hook_name == *configured_name) return {*hook, {}};
    return {std::nullopt, "aws.lifecycle_hook names \"" + *configured_name +
                              "\", which is no terminate hook of this instance's group"};
  }
  if (terminating.empty()) return {};
  if (terminating.size() == 1) return {*terminating.front(), {}};
  std::string names;
  for (const auto* hook : terminating) names += (names.empty() ? "" : ", ") + hook->hook_name;
  return {std::nullopt, "the group has several terminate hooks (" + names +
                            "); set aws.lifecycle_hook to the one runwarden answers"};
}

lifecycle_action lifecycle_action_for(const lifecycle_hook& hook, instant now,
                                      duration seen_late_by) {
  duration lifetime = std::min<duration>(lifecycle_action_hours_max,
                                         hook.heartbeat_timeout * lifecycle_action_heartbeats_max);
  if (hook.global_timeout.count() > 0) lifetime = std::min<duration>(lifetime, hook.global_timeout);
  return {hook.hook_name, hook.heartbeat_timeout, now - seen_late_by + lifetime};
}

}  // namespace runwarden
