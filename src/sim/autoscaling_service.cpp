// See autoscaling_service.hpp.
#include "src/sim/autoscaling_service.hpp"

#include <fmt/format.h>

#include <map>

#include "src/sim/fleet_checker.hpp"
#include "src/util/form_encoding.hpp"

namespace runwarden {

namespace {

using form = std::map<std::string, std::string>;

std::string param(const form& parameters, const std::string& name) {
  const auto found = parameters.find(name);
  return found == parameters.end() ? std::string{} : found->second;
}

http_response ok(const std::string& action, const std::string& result) {
  return {.status_code = 200,
          .body = fmt::format("<{0}Response xmlns=\"http://autoscaling.amazonaws.com/doc/"
                              "2011-01-01/\"><{0}Result>{1}</{0}Result><ResponseMetadata>"
                              "<RequestId>sim</RequestId></ResponseMetadata></{0}Response>",
                              action, result)};
}

http_response error(int status, const std::string& code, const std::string& message) {
  return {.status_code = status,
          .body = fmt::format("<ErrorResponse xmlns=\"http://autoscaling.amazonaws.com/doc/"
                              "2011-01-01/\"><Error><Type>Sender</Type><Code>{}</Code>"
                              "<Message>{}</Message></Error><RequestId>sim</RequestId>"
                              "</ErrorResponse>",
                              code, message)};
}

std::string flag(bool value) { return value ? "true" : "false"; }

std::string instance_member(const sim_instance& instance) {
  return fmt::format(
      "<member><InstanceId>{}</InstanceId><AutoScalingGroupName>{}"
      "</AutoScalingGroupName><AvailabilityZone>sim-1a</AvailabilityZone>"
      "<LifecycleState>{}</LifecycleState><HealthStatus>{}</HealthStatus>"
      "<ProtectedFromScaleIn>{}</ProtectedFromScaleIn></member>",
      instance.id, sim_group_name, instance.lifecycle_state,
      instance.unhealthy ? "UNHEALTHY" : "HEALTHY", flag(instance.protected_from_scale_in));
}

std::string hook_member(const char* name, const char* transition, const fleet_scenario& s) {
  return fmt::format(
      "<member><LifecycleHookName>{}</LifecycleHookName><AutoScalingGroupName>"
      "{}</AutoScalingGroupName><LifecycleTransition>{}</LifecycleTransition>"
      "<HeartbeatTimeout>{}</HeartbeatTimeout><GlobalTimeout>{}</GlobalTimeout>"
      "<DefaultResult>{}</DefaultResult></member>",
      name, sim_group_name, transition, s.heartbeat_timeout.count(), s.global_timeout.count(),
      std::string_view{name} == sim_launch_hook ? "ABANDON" : "CONTINUE");
}

http_response no_active_action(const std::string& instance_id) {
  return error(400, "ValidationError",
               "No active Lifecycle Action found with instance ID " + instance_id);
}

}  // namespace

// SetInstanceHealth: an instance marked Unhealthy is terminated and replaced by the group,
// through Terminating:Wait and its terminate hook as any termination (the group's health
// pass acts at once here); its desired capacity stays, so a replacement launches.
http_response autoscaling_service::set_instance_health(const form& parameters, std::size_t index,
                                                       sim_seconds now) {
  const auto health = param(parameters, "HealthStatus");
  if (health != "Healthy" && health != "Unhealthy")
    return error(400, "ValidationError",
                 "Valid requests must contain either Healthy or Unhealthy as HealthStatus");
  auto& instance = world_.instances_[index];
  if (health == "Unhealthy" && !instance.unhealthy) {
    instance.unhealthy = true;
    world_.begin_termination(index, now, false);
  }
  return ok("SetInstanceHealth", "");
}

std::string autoscaling_action(const std::string& body) {
  for (auto& [key, value] : form_decode(body))
    if (key == "Action") return value;
  return {};
}

http_response autoscaling_service::answer(const std::string& body, sim_seconds now) {
  form parameters;
  for (auto& [key, value] : form_decode(body)) parameters.emplace(key, value);
  const auto action = param(parameters, "Action");
  const auto& scenario = world_.scenario_;
  const auto instance_id = param(
      parameters, action == "DescribeAutoScalingInstances" || action == "SetInstanceProtection"
                      ? "InstanceIds.member.1"
                      : "InstanceId");
  const auto index = world_.index_of(instance_id);
  if (action == "DescribeAutoScalingInstances") {
    const bool listed = index && !world_.instances_[*index].gone;
    return ok(action, "<AutoScalingInstances>" +
                          (listed ? instance_member(world_.instances_[*index]) : "") +
                          "</AutoScalingInstances>");
  }
  if (action == "DescribeLifecycleHooks") {
    std::string hooks =
        hook_member(sim_terminate_hook, "autoscaling:EC2_INSTANCE_TERMINATING", scenario);
    if (scenario.launch_hook)
      hooks += hook_member(sim_launch_hook, "autoscaling:EC2_INSTANCE_LAUNCHING", scenario);
    return ok(action, "<LifecycleHooks>" + hooks + "</LifecycleHooks>");
  }
  if (action == "DescribeAutoScalingGroups") {
    std::string members;
    for (const auto& instance : world_.instances_)
      if (!instance.gone)
        members += fmt::format(
            "<member><InstanceId>{}</InstanceId><LifecycleState>{}"
            "</LifecycleState><HealthStatus>Healthy</HealthStatus>"
            "<ProtectedFromScaleIn>{}</ProtectedFromScaleIn></member>",
            instance.id, instance.lifecycle_state, flag(instance.protected_from_scale_in));
    return ok(action, fmt::format("<AutoScalingGroups><member><AutoScalingGroupName>{}"
                                  "</AutoScalingGroupName><MinSize>{}</MinSize><MaxSize>{}"
                                  "</MaxSize><DesiredCapacity>{}</DesiredCapacity><Instances>{}"
                                  "</Instances></member></AutoScalingGroups>",
                                  sim_group_name, scenario.min_size, scenario.max_size,
                                  world_.desired_, members));
  }
  if (action == "SetDesiredCapacity") {
    const int desired = std::stoi(param(parameters, "DesiredCapacity"));
    if (desired > scenario.max_size || desired < scenario.min_size)
      return error(
          400, "ValidationError",
          fmt::format("New SetDesiredCapacity value {} is {} value {} for the "
                      "AutoScalingGroup.",
                      desired, desired > scenario.max_size ? "above max" : "below min",
                      desired > scenario.max_size ? scenario.max_size : scenario.min_size));
    world_.set_desired(desired, now);
    return ok(action, "");
  }
  if (!index || world_.instances_[*index].gone)
    return error(400, "ValidationError",
                 "Instance Id not found - No managed instance found for "
                 "instance ID: " +
                     instance_id);
  auto& instance = world_.instances_[*index];
  if (action == "SetInstanceProtection") {
    instance.protected_from_scale_in = param(parameters, "ProtectedFromScaleIn") == "true";
    return ok(action, "");
  }
  if (action == "TerminateInstanceInAutoScalingGroup") {
    const bool decrement = param(parameters, "ShouldDecrementDesiredCapacity") == "true";
    if (decrement && world_.desired_ - 1 < scenario.min_size)
      return error(400, "ValidationError",
                   fmt::format("Currently, desiredSize equals minSize ({}). Terminating "
                               "instance without replacement will violate group's min size "
                               "constraint. Either set shouldDecrementDesiredCapacity flag to "
                               "false or lower group's min size.",
                               scenario.min_size));
    world_.begin_termination(*index, now, decrement);
    return ok(action,
              "<Activity><ActivityId>sim</ActivityId><StatusCode>InProgress"
              "</StatusCode></Activity>");
  }
  if (action == "SetInstanceHealth") return set_instance_health(parameters, *index, now);
  const bool launch = param(parameters, "LifecycleHookName") == sim_launch_hook;
  auto& slot = launch ? instance.launch_action : instance.terminate_action;
  const bool active = slot && !slot->ended;
  if (action == "RecordLifecycleActionHeartbeat") {
    if (!active) return no_active_action(instance_id);
    slot->heartbeat_deadline = std::min(
        now + static_cast<double>(scenario.heartbeat_timeout.count()), slot->global_deadline);
    instance.lane.marks.push_back({now, "heartbeat"});
    return ok(action, "");
  }
  if (action == "CompleteLifecycleAction") {
    if (!active) {
      if (slot) ++slot->completions_refused;
      return no_active_action(instance_id);
    }
    const auto result = param(parameters, "LifecycleActionResult");
    if (!launch) world_.checker().hook_completed(now, instance, result);
    world_.end_action(instance, *slot, result, now);
    if (launch && result == "CONTINUE") world_.set_state(instance, "InService", now);
    if (launch && result != "CONTINUE") world_.begin_termination(*index, now, false);
    if (!launch) world_.set_state(instance, "Terminating:Proceed", now);
    return ok(action, "");
  }
  return error(400, "InvalidAction", "Could not find operation " + action);
}

}  // namespace runwarden
