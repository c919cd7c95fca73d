// See autoscaling_answers.hpp. Every answer has the shape
//   <ActionResponse><ActionResult><List><member>...</member></List><NextToken/></ActionResult>
// so one walker reads the list, and each item reader only names its fields. Reading throws
// field_missing internally; the walker turns it into the answer's error.
#include "src/aws/autoscaling_answers.hpp"

#include <charconv>
#include <functional>
#include <limits>
#include <stdexcept>

#include "src/aws/aws_xml_answer.hpp"
#include "src/util/time_bounds.hpp"

namespace runwarden {

namespace {

struct field_missing : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string required_text(const pugi::xml_node& member, const char* name) {
  auto text = child_text(member, name);
  if (!text || text->empty())
    throw field_missing{std::string{"a <"} + member.parent().name() + "> member has no <" + name +
                        ">"};
  return *text;
}

// A whole number from `min` to `max`. The bounds are what the field can mean (a count, or
// seconds the nanosecond clocks can add to a deadline), not AWS's documented limits, which
// AWS may raise.
long long required_number(const pugi::xml_node& member, const char* name, long long min,
                          long long max) {
  const auto text = required_text(member, name);
  long long value = 0;
  const auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (problem != std::errc{} || end != text.data() + text.size() || value < min || value > max)
    throw field_missing{std::string{"<"} + name + "> is not a whole number from " +
                        std::to_string(min) + " to " + std::to_string(max) + ": " + text};
  return value;
}

int required_count(const pugi::xml_node& member, const char* name) {
  return static_cast<int>(required_number(member, name, 0, std::numeric_limits<int>::max()));
}

std::chrono::seconds required_seconds(const pugi::xml_node& member, const char* name,
                                      long long min) {
  return std::chrono::seconds{required_number(member, name, min, duration_max_seconds.count())};
}

bool flag(const pugi::xml_node& member, const char* name) {
  return child_text(member, name).value_or("false") == "true";
}

template <typename Item>
describe_answer<Item> walk_members(std::string_view body, const std::string& action,
                                   const char* list_name,
                                   const std::function<Item(const pugi::xml_node&)>& read_item) {
  const std::string what = "the " + action + " answer";
  xml_answer answer;
  load_xml_answer(body, what, answer);
  if (!answer.error.empty()) return {{}, std::nullopt, answer.error};
  const auto root = answer.document.document_element();
  if (std::string_view{root.name()} != action + "Response")
    return {{}, std::nullopt, what + " is <" + root.name() + ">, not <" + action + "Response>"};
  const auto result = root.child((action + "Result").c_str());
  if (!result) return {{}, std::nullopt, what + " has no <" + action + "Result>"};
  describe_answer<Item> parsed;
  try {
    for (const auto& member : result.child(list_name).children("member"))
      parsed.items.push_back(read_item(member));
  } catch (const field_missing& problem) {
    return {{}, std::nullopt, what + ": " + problem.what()};
  }
  const auto next = child_text(result, "NextToken");
  if (next && !next->empty()) parsed.next_token = *next;
  return parsed;
}

autoscaling_instance read_instance(const pugi::xml_node& member) {
  return {required_text(member, "InstanceId"),
          required_text(member, "AutoScalingGroupName"),
          child_text(member, "AvailabilityZone").value_or(""),
          required_text(member, "LifecycleState"),
          child_text(member, "HealthStatus").value_or(""),
          flag(member, "ProtectedFromScaleIn")};
}

lifecycle_hook read_hook(const pugi::xml_node& member) {
  return {required_text(member, "LifecycleHookName"), required_text(member, "AutoScalingGroupName"),
          required_text(member, "LifecycleTransition"),
          // A heartbeat timeout of 0 would leave no time to heartbeat; AWS's least is 30.
          required_seconds(member, "HeartbeatTimeout", 1),
          required_seconds(member, "GlobalTimeout", 0), required_text(member, "DefaultResult")};
}

auto_scaling_group read_group(const pugi::xml_node& member) {
  auto_scaling_group group{required_text(member, "AutoScalingGroupName"),
                           required_count(member, "MinSize"),
                           required_count(member, "MaxSize"),
                           required_count(member, "DesiredCapacity"),
                           {}};
  for (const auto& instance : member.child("Instances").children("member"))
    group.instances.push_back({required_text(instance, "InstanceId"),
                               required_text(instance, "LifecycleState"),
                               child_text(instance, "HealthStatus").value_or(""),
                               flag(instance, "ProtectedFromScaleIn")});
  return group;
}

}  // namespace

describe_answer<autoscaling_instance> parse_describe_auto_scaling_instances(std::string_view body) {
  return walk_members<autoscaling_instance>(body, "DescribeAutoScalingInstances",
                                            "AutoScalingInstances", read_instance);
}

describe_answer<lifecycle_hook> parse_describe_lifecycle_hooks(std::string_view body) {
  return walk_members<lifecycle_hook>(body, "DescribeLifecycleHooks", "LifecycleHooks", read_hook);
}

describe_answer<auto_scaling_group> parse_describe_auto_scaling_groups(std::string_view body) {
  return walk_members<auto_scaling_group>(body, "DescribeAutoScalingGroups", "AutoScalingGroups",
                                          read_group);
}

}  // namespace runwarden
