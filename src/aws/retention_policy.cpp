// See retention_policy.hpp.
#include "src/aws/retention_policy.hpp"

#include "src/aws/aws_xml_answer.hpp"

namespace runwarden {

namespace {

constexpr std::string_view action = "DescribeAutoScalingGroups";

retention_answer failed(std::string why) { return {std::nullopt, std::move(why)}; }

// The trigger of one group member; absent elements mean AWS's default, termination.
retention_answer read_trigger(const pugi::xml_node& group) {
  const auto triggers = group.child("InstanceLifecyclePolicy").child("RetentionTriggers");
  const auto value = child_text(triggers, "TerminateHookAbandon").value_or("");
  if (value.empty() || value == "terminate") return {abandon_retention::terminate, {}};
  if (value == "retain") return {abandon_retention::retain, {}};
  return failed("TerminateHookAbandon is neither retain nor terminate: " + value.substr(0, 64));
}

}  // namespace

retention_answer parse_retention_on_abandon(std::string_view body, std::string_view group_name) {
  const std::string what = "the " + std::string{action} + " answer";
  xml_answer answer;
  load_xml_answer(body, what, answer);
  if (!answer.error.empty()) return failed(answer.error);
  const auto root = answer.document.document_element();
  if (std::string_view{root.name()} != std::string{action} + "Response")
    return failed(what + " is <" + root.name() + ">, not <" + std::string{action} + "Response>");
  const auto result = root.child((std::string{action} + "Result").c_str());
  if (!result) return failed(what + " has no <" + std::string{action} + "Result>");
  for (const auto& group : result.child("AutoScalingGroups").children("member")) {
    if (child_text(group, "AutoScalingGroupName").value_or("") != group_name) continue;
    auto trigger = read_trigger(group);
    if (!trigger.error.empty()) trigger.error = what + ": " + trigger.error;
    return trigger;
  }
  return failed(what + " does not hold group " + std::string{group_name});
}

bool retained_when_abandoned(abandon_retention on_abandon, const lifecycle_hook& hook) {
  return on_abandon == abandon_retention::retain && hook.default_result == "ABANDON";
}

}  // namespace runwarden
