#pragma once
// The Auto Scaling calls runwarden makes, as Query protocol parameters (API 2011-01-01):
// Action and Version first, then the members in the order of the service model, as
// botocore writes them. Lists become Name.member.1, Name.member.2, ...; booleans "true" or
// "false". form_encode() turns the result into the request body.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/aws/aws_query_service.hpp"
#include "src/util/form_encoding.hpp"

namespace runwarden {

inline constexpr std::string_view autoscaling_api_version = "2011-01-01";

// Which pending lifecycle action a heartbeat or completion is for. runwarden names it by
// instance id; the token form exists for callers that got one from a notification.
struct lifecycle_action_target {
  std::string hook_name;
  std::string group_name;
  std::string instance_id;                  // empty: not sent
  std::optional<std::string> action_token;  // sent when set
};

enum class lifecycle_action_result { proceed, abandon };  // CONTINUE, ABANDON

// One call: its Action name (for errors: iam_prefix + ":" + action is the permission) and
// every parameter, Action and Version included. Calls of other Query services (CloudWatch,
// src/aws/cloudwatch_requests.hpp) use the same shape with their own IAM prefix.
struct autoscaling_call {
  std::string action;
  form_parameter_list parameters;
  std::string_view iam_prefix = autoscaling_query_service.iam_prefix;
};

autoscaling_call describe_auto_scaling_instances(
    const std::vector<std::string>& instance_ids, std::optional<int> max_records = std::nullopt,
    const std::optional<std::string>& next_token = std::nullopt);

autoscaling_call describe_lifecycle_hooks(const std::string& group_name,
                                          const std::vector<std::string>& hook_names = {});

autoscaling_call record_lifecycle_action_heartbeat(const lifecycle_action_target& target);

autoscaling_call complete_lifecycle_action_call(const lifecycle_action_target& target,
                                                lifecycle_action_result result);

autoscaling_call set_desired_capacity(const std::string& group_name, int desired_capacity,
                                      bool honor_cooldown);

autoscaling_call terminate_instance_in_auto_scaling_group(const std::string& instance_id,
                                                          bool should_decrement_desired_capacity);

// Issue 33: a retirement past the restart budget marks the instance Unhealthy so that its
// group replaces it; ShouldRespectGracePeriod false, since the instance asks it itself.
autoscaling_call set_instance_health(const std::string& instance_id, bool healthy,
                                     bool should_respect_grace_period);
autoscaling_call set_instance_protection(const std::vector<std::string>& instance_ids,
                                         const std::string& group_name,
                                         bool protected_from_scale_in);

autoscaling_call describe_auto_scaling_groups(
    const std::vector<std::string>& group_names,
    const std::optional<std::string>& next_token = std::nullopt,
    std::optional<int> max_records = std::nullopt);

// "autoscaling:CompleteLifecycleAction", "cloudwatch:PutMetricData": the IAM permission a
// call needs.
std::string required_permission(const autoscaling_call& call);

}  // namespace runwarden
