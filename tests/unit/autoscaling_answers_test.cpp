// Describe* answers: the API reference's sample, constructed answers in the real shape
// (http:// namespace, several members, NextToken), and the ways a body goes wrong (an HTML
// page, XML cut off, an error envelope where a result was expected, a member without a field
// runwarden needs, a number that is not one). Each bad body gives an error, never items.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "src/aws/autoscaling_answers.hpp"
#include "tests/common/file_bytes.hpp"

namespace {

using namespace runwarden;
using runwarden::testing::file_bytes;

const std::string aws_data = RUNWARDEN_TEST_DATA_DIR "/aws/";

const std::string hooks_answer = R"(<?xml version="1.0" encoding="UTF-8"?>
<DescribeLifecycleHooksResponse xmlns="http://autoscaling.amazonaws.com/doc/2011-01-01/">
  <DescribeLifecycleHooksResult>
    <LifecycleHooks>
      <member>
        <LifecycleHookName>drain</LifecycleHookName>
        <AutoScalingGroupName>runners</AutoScalingGroupName>
        <LifecycleTransition>autoscaling:EC2_INSTANCE_TERMINATING</LifecycleTransition>
        <HeartbeatTimeout>300</HeartbeatTimeout>
        <GlobalTimeout>30000</GlobalTimeout>
        <DefaultResult>CONTINUE</DefaultResult>
      </member>
      <member>
        <LifecycleHookName>ready</LifecycleHookName>
        <AutoScalingGroupName>runners</AutoScalingGroupName>
        <LifecycleTransition>autoscaling:EC2_INSTANCE_LAUNCHING</LifecycleTransition>
        <NotificationMetadata>{"a": 1}</NotificationMetadata>
        <HeartbeatTimeout>600</HeartbeatTimeout>
        <GlobalTimeout>60000</GlobalTimeout>
        <DefaultResult>ABANDON</DefaultResult>
      </member>
    </LifecycleHooks>
  </DescribeLifecycleHooksResult>
  <ResponseMetadata><RequestId>1</RequestId></ResponseMetadata>
</DescribeLifecycleHooksResponse>)";

const std::string groups_answer = R"(<DescribeAutoScalingGroupsResponse
    xmlns="http://autoscaling.amazonaws.com/doc/2011-01-01/">
  <DescribeAutoScalingGroupsResult>
    <AutoScalingGroups>
      <member>
        <AutoScalingGroupName>runners</AutoScalingGroupName>
        <MinSize>1</MinSize>
        <MaxSize>10</MaxSize>
        <DesiredCapacity>2</DesiredCapacity>
        <Instances>
          <member>
            <InstanceId>i-1</InstanceId>
            <LifecycleState>InService</LifecycleState>
            <HealthStatus>Healthy</HealthStatus>
            <ProtectedFromScaleIn>true</ProtectedFromScaleIn>
          </member>
          <member>
            <InstanceId>i-2</InstanceId>
            <LifecycleState>Terminating:Wait</LifecycleState>
            <HealthStatus>Healthy</HealthStatus>
            <ProtectedFromScaleIn>false</ProtectedFromScaleIn>
          </member>
        </Instances>
      </member>
    </AutoScalingGroups>
    <NextToken>page-2</NextToken>
  </DescribeAutoScalingGroupsResult>
</DescribeAutoScalingGroupsResponse>)";

}  // namespace

TEST_CASE("the API reference's DescribeAutoScalingInstances sample parses", "[autoscaling]") {
  const auto answer =
      parse_describe_auto_scaling_instances(file_bytes(aws_data + "describe_instances_ok.xml"));
  REQUIRE(answer.error.empty());
  REQUIRE(answer.items.size() == 1);
  const auto& instance = answer.items.front();
  CHECK(instance.instance_id == "i-1234567890abcdef0");
  CHECK(instance.group_name == "my-asg");
  CHECK(instance.availability_zone == "us-east-1b");
  CHECK(instance.lifecycle_state == "InService");
  CHECK(instance.health_status == "HEALTHY");
  CHECK_FALSE(instance.protected_from_scale_in);
  CHECK_FALSE(answer.next_token);
}

TEST_CASE("an instance that is in no group gives an empty list", "[autoscaling]") {
  const auto answer = parse_describe_auto_scaling_instances(
      "<DescribeAutoScalingInstancesResponse><DescribeAutoScalingInstancesResult>"
      "<AutoScalingInstances/></DescribeAutoScalingInstancesResult>"
      "</DescribeAutoScalingInstancesResponse>");
  CHECK(answer.error.empty());
  CHECK(answer.items.empty());
}

TEST_CASE("lifecycle hooks parse with their timeouts", "[autoscaling]") {
  const auto answer = parse_describe_lifecycle_hooks(hooks_answer);
  REQUIRE(answer.error.empty());
  REQUIRE(answer.items.size() == 2);
  CHECK(answer.items[0].hook_name == "drain");
  CHECK(answer.items[0].transition == "autoscaling:EC2_INSTANCE_TERMINATING");
  CHECK(answer.items[0].heartbeat_timeout == std::chrono::seconds{300});
  CHECK(answer.items[0].global_timeout == std::chrono::seconds{30000});
  CHECK(answer.items[0].default_result == "CONTINUE");
  CHECK(answer.items[1].hook_name == "ready");
  CHECK(answer.items[1].default_result == "ABANDON");
}

TEST_CASE("groups parse with capacity, members and the next page's token", "[autoscaling]") {
  const auto answer = parse_describe_auto_scaling_groups(groups_answer);
  REQUIRE(answer.error.empty());
  REQUIRE(answer.items.size() == 1);
  const auto& group = answer.items.front();
  CHECK(group.group_name == "runners");
  CHECK(group.min_size == 1);
  CHECK(group.max_size == 10);
  CHECK(group.desired_capacity == 2);
  REQUIRE(group.instances.size() == 2);
  CHECK(group.instances[0].protected_from_scale_in);
  CHECK(group.instances[1].lifecycle_state == "Terminating:Wait");
  CHECK(answer.next_token == std::optional<std::string>{"page-2"});
}

TEST_CASE("bad Describe bodies give errors that say what is wrong", "[autoscaling]") {
  SECTION("an HTML error page") {
    const auto answer = parse_describe_lifecycle_hooks(
        "\n<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>");
    CHECK(answer.items.empty());
    CHECK(answer.error ==
          "the DescribeLifecycleHooks answer is an HTML page, not an AWS answer (a proxy or a "
          "wrong endpoint?)");
  }
  SECTION("XML cut off half way") {
    const auto answer = parse_describe_lifecycle_hooks(hooks_answer.substr(0, 400));
    CHECK(answer.items.empty());
    CHECK_THAT(answer.error, Catch::StartsWith("the DescribeLifecycleHooks answer is not "
                                               "well-formed XML ("));
    CHECK_THAT(answer.error, Catch::EndsWith(" of 400; cut off?)"));
  }
  SECTION("an empty body") {
    CHECK(parse_describe_auto_scaling_groups(" \n").error ==
          "the DescribeAutoScalingGroups answer is empty");
  }
  SECTION("an error envelope where a result was expected") {
    CHECK(parse_describe_auto_scaling_groups(file_bytes(aws_data + "error_throttling.xml")).error ==
          "the DescribeAutoScalingGroups answer is <ErrorResponse>, not "
          "<DescribeAutoScalingGroupsResponse>");
  }
  SECTION("a member without a field runwarden needs") {
    std::string broken = hooks_answer;
    broken.erase(broken.find("<HeartbeatTimeout>300</HeartbeatTimeout>"), 40);
    const auto answer = parse_describe_lifecycle_hooks(broken);
    CHECK(answer.items.empty());
    CHECK(answer.error ==
          "the DescribeLifecycleHooks answer: a <LifecycleHooks> member has no "
          "<HeartbeatTimeout>");
  }
  SECTION("a number that is not one") {
    std::string broken = groups_answer;
    broken.replace(broken.find("<MaxSize>10"), 11, "<MaxSize>1O");
    CHECK(parse_describe_auto_scaling_groups(broken).error ==
          "the DescribeAutoScalingGroups answer: <MaxSize> is not a whole number from 0 to "
          "2147483647: 1O");
  }
  SECTION("a number out of what the field can mean") {
    // Timeouts past duration_max would overflow the nanoseconds a deadline counts in; a
    // heartbeat timeout of 0 leaves no time to heartbeat; a negative size is no size.
    for (const auto& [field, value] :
         {std::pair{"HeartbeatTimeout", "300"}, std::pair{"GlobalTimeout", "30000"}}) {
      for (const char* wrong : {"9999999999", "315360001", "-30"}) {
        std::string broken = hooks_answer;
        const std::string good = std::string{"<"} + field + ">" + value + "<";
        broken.replace(broken.find(good), good.size(),
                       std::string{"<"} + field + ">" + wrong + "<");
        CAPTURE(field, wrong);
        const auto answer = parse_describe_lifecycle_hooks(broken);
        CHECK(answer.items.empty());
        CHECK_THAT(answer.error, Catch::EndsWith(std::string{"to 315360000: "} + wrong));
      }
    }
    std::string no_heartbeat = hooks_answer;
    no_heartbeat.replace(no_heartbeat.find("<HeartbeatTimeout>300"), 21, "<HeartbeatTimeout>0");
    CHECK(parse_describe_lifecycle_hooks(no_heartbeat).error ==
          "the DescribeLifecycleHooks answer: <HeartbeatTimeout> is not a whole number from 1 "
          "to 315360000: 0");
    std::string negative = groups_answer;
    negative.replace(negative.find("<DesiredCapacity>2"), 18, "<DesiredCapacity>-2");
    CHECK(parse_describe_auto_scaling_groups(negative).error ==
          "the DescribeAutoScalingGroups answer: <DesiredCapacity> is not a whole number from 0 "
          "to 2147483647: -2");
  }
}
