// See autoscaling_requests.hpp. Parameter order matters only for byte-identical bodies (the
// service accepts any order); it follows the service model so tests can compare with
// botocore's own encodings.
#include "src/aws/autoscaling_requests.hpp"

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

autoscaling_call start_call(std::string action) {
  autoscaling_call call{std::move(action), {}, autoscaling_query_service.iam_prefix};
  call.parameters.emplace_back("Action", call.action);
  call.parameters.emplace_back("Version", autoscaling_api_version);
  return call;
}

void add_members(autoscaling_call& call, std::string_view list_name,
                 const std::vector<std::string>& members) {
  for (std::size_t index = 0; index < members.size(); ++index)
    call.parameters.emplace_back(std::string{list_name} + ".member." + std::to_string(index + 1),
                                 members[index]);
}

std::string boolean_text(bool value) { return value ? "true" : "false"; }

void add_target(autoscaling_call& call, const lifecycle_action_target& target) {
  RUNWARDEN_ASSERT(!target.instance_id.empty() || target.action_token);
  call.parameters.emplace_back("LifecycleHookName", target.hook_name);
  call.parameters.emplace_back("AutoScalingGroupName", target.group_name);
  if (target.action_token)
    call.parameters.emplace_back("LifecycleActionToken", *target.action_token);
}

}  // namespace

autoscaling_call describe_auto_scaling_instances(const std::vector<std::string>& instance_ids,
                                                 std::optional<int> max_records,
                                                 const std::optional<std::string>& next_token) {
  auto call = start_call("DescribeAutoScalingInstances");
  add_members(call, "InstanceIds", instance_ids);
  if (max_records) call.parameters.emplace_back("MaxRecords", std::to_string(*max_records));
  if (next_token) call.parameters.emplace_back("NextToken", *next_token);
  return call;
}

autoscaling_call describe_lifecycle_hooks(const std::string& group_name,
                                          const std::vector<std::string>& hook_names) {
  auto call = start_call("DescribeLifecycleHooks");
  call.parameters.emplace_back("AutoScalingGroupName", group_name);
  add_members(call, "LifecycleHookNames", hook_names);
  return call;
}

autoscaling_call record_lifecycle_action_heartbeat(const lifecycle_action_target& target) {
  auto call = start_call("RecordLifecycleActionHeartbeat");
  add_target(call, target);
  if (!target.instance_id.empty()) call.parameters.emplace_back("InstanceId", target.instance_id);
  return call;
}

autoscaling_call complete_lifecycle_action_call(const lifecycle_action_target& target,
                                                lifecycle_action_result result) {
  auto call = start_call("CompleteLifecycleAction");
  add_target(call, target);
  call.parameters.emplace_back("LifecycleActionResult",
                               result == lifecycle_action_result::proceed ? "CONTINUE" : "ABANDON");
  if (!target.instance_id.empty()) call.parameters.emplace_back("InstanceId", target.instance_id);
  return call;
}

autoscaling_call set_desired_capacity(const std::string& group_name, int desired_capacity,
                                      bool honor_cooldown) {
  RUNWARDEN_ASSERT(desired_capacity >= 0);
  auto call = start_call("SetDesiredCapacity");
  call.parameters.emplace_back("AutoScalingGroupName", group_name);
  call.parameters.emplace_back("DesiredCapacity", std::to_string(desired_capacity));
  call.parameters.emplace_back("HonorCooldown", boolean_text(honor_cooldown));
  return call;
}

autoscaling_call terminate_instance_in_auto_scaling_group(const std::string& instance_id,
                                                          bool should_decrement_desired_capacity) {
  auto call = start_call("TerminateInstanceInAutoScalingGroup");
  call.parameters.emplace_back("InstanceId", instance_id);
  call.parameters.emplace_back("ShouldDecrementDesiredCapacity",
                               boolean_text(should_decrement_desired_capacity));
  return call;
}

autoscaling_call set_instance_health(const std::string& instance_id, bool healthy,
                                     bool should_respect_grace_period) {
  auto call = start_call("SetInstanceHealth");
  call.parameters.emplace_back("InstanceId", instance_id);
  call.parameters.emplace_back("HealthStatus", healthy ? "Healthy" : "Unhealthy");
  call.parameters.emplace_back("ShouldRespectGracePeriod",
                               boolean_text(should_respect_grace_period));
  return call;
}

autoscaling_call set_instance_protection(const std::vector<std::string>& instance_ids,
                                         const std::string& group_name,
                                         bool protected_from_scale_in) {
  auto call = start_call("SetInstanceProtection");
  add_members(call, "InstanceIds", instance_ids);
  call.parameters.emplace_back("AutoScalingGroupName", group_name);
  call.parameters.emplace_back("ProtectedFromScaleIn", boolean_text(protected_from_scale_in));
  return call;
}

autoscaling_call describe_auto_scaling_groups(const std::vector<std::string>& group_names,
                                              const std::optional<std::string>& next_token,
                                              std::optional<int> max_records) {
  auto call = start_call("DescribeAutoScalingGroups");
  add_members(call, "AutoScalingGroupNames", group_names);
  if (next_token) call.parameters.emplace_back("NextToken", *next_token);
  if (max_records) call.parameters.emplace_back("MaxRecords", std::to_string(*max_records));
  return call;
}

std::string required_permission(const autoscaling_call& call) {
  return std::string{call.iam_prefix} + ":" + call.action;
}

}  // namespace runwarden
