// Auto Scaling requests are compared with what botocore sends: the bodies and Authorization
// headers recorded in tests/data/aws/asg_wire_requests_botocore.txt must come out byte for
// byte from our parameter lists, form encoding and signer (same key, region and time). The
// calls that file lacks are compared with bodies botocore 1.29.27's query serializer wrote
// for the same inputs.

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "src/aws/autoscaling_requests.hpp"
#include "src/aws/sigv4_signer.hpp"
#include "src/util/sha256_digest.hpp"

namespace {

using namespace runwarden;

struct recorded_request {
  std::string authorization;
  std::string body;
};

// "=== name", the request line and headers, a blank line, the body.
std::map<std::string, recorded_request> recorded_requests() {
  std::ifstream file{std::string{RUNWARDEN_TEST_DATA_DIR} + "/aws/asg_wire_requests_botocore.txt"};
  REQUIRE(file);
  std::map<std::string, recorded_request> requests;
  std::string name;
  bool in_body = false;
  for (std::string line; std::getline(file, line);) {
    if (line.starts_with("=== ")) {
      name = line.substr(4);
      in_body = false;
    } else if (line.starts_with("Authorization: ")) {
      requests[name].authorization = line.substr(15);
    } else if (line.empty()) {
      in_body = true;
    } else if (in_body) {
      requests[name].body = line;
    }
  }
  return requests;
}

const lifecycle_action_target instance_target{"my-hook", "my-asg", "i-1234567890abcdef0", {}};

std::string signed_authorization(const std::string& body) {
  const sigv4_request request{"POST",
                              "/",
                              {},
                              {{"Content-Type", std::string{form_content_type}},
                               {"Host", "autoscaling.us-east-1.amazonaws.com"}},
                              sha256_hex(body)};
  const aws_credentials credentials{
      "AKIDEXAMPLE", secret_text{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}, {}};
  const auto time = std::chrono::sys_days{std::chrono::year{2026} / 11 / 22} +
                    std::chrono::hours{1} + std::chrono::minutes{33} + std::chrono::seconds{32};
  return sign_sigv4(request, credentials, {"us-east-1", "autoscaling"}, time).authorization;
}

}  // namespace

TEST_CASE("Auto Scaling requests match botocore's bodies and signatures", "[autoscaling]") {
  const auto recorded = recorded_requests();
  REQUIRE(recorded.size() == 6);
  lifecycle_action_target token_target{"my-hook", "my-asg", "", {}};
  token_target.action_token = "bcd2f1b8-9a78-44d3-8a7a-4dd07d7cf635";
  const std::map<std::string, autoscaling_call> ours{
      {"complete_lifecycle_action",
       complete_lifecycle_action_call(instance_target, lifecycle_action_result::proceed)},
      {"record_lifecycle_action_heartbeat", record_lifecycle_action_heartbeat(token_target)},
      {"set_desired_capacity", set_desired_capacity("my-asg", 2, false)},
      {"terminate_instance_in_auto_scaling_group",
       terminate_instance_in_auto_scaling_group("i-1234567890abcdef0", true)},
      {"describe_auto_scaling_groups",
       describe_auto_scaling_groups({"my-asg", "other asg"}, std::nullopt, 50)},
      {"describe_auto_scaling_instances", describe_auto_scaling_instances({"i-1234567890abcdef0"})},
  };
  for (const auto& [name, request] : recorded) {
    INFO(name);
    REQUIRE(ours.contains(name));
    const auto body = form_encode(ours.at(name).parameters);
    CHECK(body == request.body);
    CHECK(signed_authorization(body) == request.authorization);
  }
}

TEST_CASE("the calls botocore's recording lacks match its serializer", "[autoscaling]") {
  CHECK(
      form_encode(describe_lifecycle_hooks("my-asg", {"drain hook", "launch/ready"}).parameters) ==
      "Action=DescribeLifecycleHooks&Version=2011-01-01&AutoScalingGroupName=my-asg&"
      "LifecycleHookNames.member.1=drain+hook&LifecycleHookNames.member.2=launch%2Fready");
  CHECK(form_encode(describe_lifecycle_hooks("my-asg").parameters) ==
        "Action=DescribeLifecycleHooks&Version=2011-01-01&AutoScalingGroupName=my-asg");
  CHECK(form_encode(set_instance_protection({"i-1", "i-2"}, "my-asg", true).parameters) ==
        "Action=SetInstanceProtection&Version=2011-01-01&InstanceIds.member.1=i-1&"
        "InstanceIds.member.2=i-2&AutoScalingGroupName=my-asg&ProtectedFromScaleIn=true");
  // botocore's QuerySerializer, members in the model's order (InstanceId, HealthStatus,
  // ShouldRespectGracePeriod).
  CHECK(form_encode(set_instance_health("i-0abc", false, false).parameters) ==
        "Action=SetInstanceHealth&Version=2011-01-01&InstanceId=i-0abc&HealthStatus=Unhealthy&"
        "ShouldRespectGracePeriod=false");
  const lifecycle_action_target launch{"launch-hook", "my-asg", "i-0abc", {}};
  const auto abandon = complete_lifecycle_action_call(launch, lifecycle_action_result::abandon);
  CHECK(form_encode(abandon.parameters) ==
        "Action=CompleteLifecycleAction&Version=2011-01-01&LifecycleHookName=launch-hook&"
        "AutoScalingGroupName=my-asg&LifecycleActionResult=ABANDON&InstanceId=i-0abc");
  CHECK(form_encode(
            record_lifecycle_action_heartbeat({"my-hook", "my-asg", "i-0abc", {}}).parameters) ==
        "Action=RecordLifecycleActionHeartbeat&Version=2011-01-01&LifecycleHookName=my-hook&"
        "AutoScalingGroupName=my-asg&InstanceId=i-0abc");
  CHECK(form_encode(describe_auto_scaling_instances({"i-0abc"}, 1, "tok+en/==").parameters) ==
        "Action=DescribeAutoScalingInstances&Version=2011-01-01&InstanceIds.member.1=i-0abc&"
        "MaxRecords=1&NextToken=tok%2Ben%2F%3D%3D");
  CHECK(form_encode(set_desired_capacity("grp \xc3\xbc&=", 0, true).parameters) ==
        "Action=SetDesiredCapacity&Version=2011-01-01&AutoScalingGroupName=grp+%C3%BC%26%3D&"
        "DesiredCapacity=0&HonorCooldown=true");
}

TEST_CASE("a call names the IAM permission it needs", "[autoscaling]") {
  CHECK(required_permission(
            complete_lifecycle_action_call(instance_target, lifecycle_action_result::proceed)) ==
        "autoscaling:CompleteLifecycleAction");
  CHECK(required_permission(describe_lifecycle_hooks("g")) == "autoscaling:DescribeLifecycleHooks");
}
