// See lifecycle_hook_choice.hpp.
#include "src/aws/lifecycle_hook_choice.hpp"

#include <algorithm>

#include "src/aws/instance_retention.hpp"

namespace runwarden {

terminate_wait terminate_wait_of(std::string_view lifecycle_state) {
  if (lifecycle_state == "Terminating:Wait") return terminate_wait::waiting;
  if (lifecycle_state == "InService" || lifecycle_state == "Terminating")
    return terminate_wait::not_yet;
  if (lifecycle_state == "Terminating:Proceed" || lifecycle_state == "Terminated")
    return terminate_wait::past;
  if (is_retained_state(lifecycle_state)) return terminate_wait::retained;
  return terminate_wait::not_leaving;
}

hook_choice choose_hook(const std::vector<lifecycle_hook>& hooks, std::string_view transition,
                        const std::optional<std::string>& configured_name,
                        std::string_view setting) {
  std::vector<const lifecycle_hook*> matching;
  for (const auto& hook : hooks)
    if (hook.transition == transition) matching.push_back(&hook);
  if (configured_name) {
    for (const auto* hook : matching)
      if (hook->hook_name == *configured_name) return {*hook, {}};
    return {std::nullopt, std::string{setting} + " names \"" + *configured_name +
                              "\", which is no " + std::string{transition} +
                              " hook of this instance's group"};
  }
  if (matching.empty()) return {};
  if (matching.size() == 1) return {*matching.front(), {}};
  std::string names;
  for (const auto* hook : matching) names += (names.empty() ? "" : ", ") + hook->hook_name;
  return {std::nullopt, "the group has several " + std::string{transition} + " hooks (" + names +
                            "); set " + std::string{setting} + " to the one runwarden answers"};
}

lifecycle_action lifecycle_action_for(const lifecycle_hook& hook, instant now,
                                      duration seen_late_by) {
  // In seconds until the least is known: a hundred heartbeat timeouts may be more than
  // nanoseconds hold.
  std::chrono::seconds lifetime = std::min<std::chrono::seconds>(
      lifecycle_action_hours_max, hook.heartbeat_timeout * lifecycle_action_heartbeats_max);
  if (hook.global_timeout.count() > 0) lifetime = std::min(lifetime, hook.global_timeout);
  return {hook.hook_name, hook.heartbeat_timeout, now - seen_late_by + lifetime};
}

}  // namespace runwarden
