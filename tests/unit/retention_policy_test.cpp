// The retention trigger TerminateHookAbandon read from DescribeAutoScalingGroups answers built
// in the shape of botocore's model of AutoScalingGroup (InstanceLifecyclePolicy ->
// RetentionTriggers -> TerminateHookAbandon, "retain" | "terminate"): a policy that retains,
// one that terminates, none at all, several groups, and answers that go wrong (not XML, an
// error envelope, the group missing, a value AWS does not document). A bad answer gives an
// error and no trigger, so that the caller keeps the hook's deadline.

#include <catch2/catch.hpp>
#include <string>

#include "src/aws/retention_policy.hpp"

namespace {

using namespace runwarden;

std::string answer_with(const std::string& members) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<DescribeAutoScalingGroupsResponse xmlns="http://autoscaling.amazonaws.com/doc/2011-01-01/">
  <DescribeAutoScalingGroupsResult><AutoScalingGroups>)" +
         members + R"(</AutoScalingGroups></DescribeAutoScalingGroupsResult>
  <ResponseMetadata><RequestId>7c6e177f-f082-11e1-ac58-3714bEXAMPLE</RequestId></ResponseMetadata>
</DescribeAutoScalingGroupsResponse>)";
}

std::string group(const std::string& name, const std::string& policy) {
  return "<member><AutoScalingGroupName>" + name +
         "</AutoScalingGroupName><MinSize>0</MinSize><MaxSize>4</MaxSize>"
         "<DesiredCapacity>1</DesiredCapacity>" +
         policy + "</member>";
}

std::string policy(const std::string& value) {
  return "<InstanceLifecyclePolicy><RetentionTriggers><TerminateHookAbandon>" + value +
         "</TerminateHookAbandon></RetentionTriggers></InstanceLifecyclePolicy>";
}

lifecycle_hook hook_defaulting_to(const std::string& result) {
  return {"drain",
          "runners",
          "autoscaling:EC2_INSTANCE_TERMINATING",
          std::chrono::seconds{300},
          std::chrono::seconds{30000},
          result};
}

}  // namespace

TEST_CASE("a group whose policy retains on abandon is read as retaining", "[retention]") {
  const auto read =
      parse_retention_on_abandon(answer_with(group("runners", policy("retain"))), "runners");
  CHECK(read.error.empty());
  CHECK(read.on_abandon == abandon_retention::retain);
}

TEST_CASE("a group that terminates on abandon, or says nothing, terminates", "[retention]") {
  for (const auto& said :
       {policy("terminate"), std::string{}, std::string{"<InstanceLifecyclePolicy/>"},
        std::string{"<InstanceLifecyclePolicy><RetentionTriggers/></InstanceLifecyclePolicy>"},
        policy("")}) {
    const auto read = parse_retention_on_abandon(answer_with(group("runners", said)), "runners");
    CHECK(read.error.empty());
    CHECK(read.on_abandon == abandon_retention::terminate);
  }
}

TEST_CASE("only the named group's policy counts", "[retention]") {
  const auto body =
      answer_with(group("other", policy("terminate")) + group("runners", policy("retain")));
  CHECK(parse_retention_on_abandon(body, "runners").on_abandon == abandon_retention::retain);
  CHECK(parse_retention_on_abandon(body, "other").on_abandon == abandon_retention::terminate);
}

TEST_CASE("a malformed answer is an error with no trigger", "[retention]") {
  const std::string envelope =
      R"(<ErrorResponse xmlns="http://autoscaling.amazonaws.com/doc/2011-01-01/"><Error>)"
      R"(<Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error>)"
      R"(</ErrorResponse>)";
  const std::string wrong_action =
      "<DescribeLifecycleHooksResponse><DescribeLifecycleHooksResult/>"
      "</DescribeLifecycleHooksResponse>";
  const std::string no_result =
      "<DescribeAutoScalingGroupsResponse></DescribeAutoScalingGroupsResponse>";
  const std::string cut_off = answer_with(group("runners", policy("retain"))).substr(0, 200);
  for (const auto& body :
       {std::string{}, std::string{"<html><body>502 Bad Gateway</body></html>"}, envelope,
        wrong_action, no_result, cut_off, answer_with(""), answer_with(group("other", "")),
        answer_with(group("runners", policy("Retain"))),
        answer_with(group("runners", policy("keep")))}) {
    const auto read = parse_retention_on_abandon(body, "runners");
    CHECK_FALSE(read.error.empty());
    CHECK_FALSE(read.on_abandon.has_value());
  }
}

TEST_CASE("a drain outlasts the hook only when the hook's timeout abandons", "[retention]") {
  CHECK(retained_when_abandoned(abandon_retention::retain, hook_defaulting_to("ABANDON")));
  CHECK_FALSE(retained_when_abandoned(abandon_retention::retain, hook_defaulting_to("CONTINUE")));
  CHECK_FALSE(retained_when_abandoned(abandon_retention::terminate, hook_defaulting_to("ABANDON")));
}
