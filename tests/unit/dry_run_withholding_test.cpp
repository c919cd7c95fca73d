// What a dry run withholds, request by request: reads go out (GET, the IMDSv2 token, the
// Query API's Describe*), every other call is withheld, named without secrets, and answered
// as done in the form its caller takes as success.
#include <catch2/catch.hpp>

#include "src/ports/http/dry_run_withholding.hpp"

using namespace runwarden;

namespace {

http_request post_action(std::string body) {
  return {.id = 7,
          .method = "POST",
          .url = "https://autoscaling.eu-west-1.amazonaws.com/",
          .body = std::move(body)};
}

}  // namespace

TEST_CASE("a dry run lets reads go out", "[dry_run]") {
  CHECK_FALSE(dry_run_withholding({.method = "GET", .url = "http://127.0.0.1:9252/metrics"}));
  CHECK_FALSE(dry_run_withholding({.method = "HEAD", .url = "https://gitlab.example.com/"}));
  CHECK_FALSE(
      dry_run_withholding({.method = "PUT", .url = "http://169.254.169.254/latest/api/token"}));
  CHECK_FALSE(dry_run_withholding(post_action(
      "Action=DescribeAutoScalingInstances&InstanceIds.member.1=i-1&Version=2011-01-01")));
}

TEST_CASE("a dry run withholds Auto Scaling actions and answers them as done", "[dry_run]") {
  const auto withheld = dry_run_withholding(post_action(
      "Action=CompleteLifecycleAction&AutoScalingGroupName=runners&InstanceId=i-1"
      "&LifecycleActionResult=CONTINUE&LifecycleActionToken=secret-ish&LifecycleHookName=drain"
      "&Version=2011-01-01"));
  REQUIRE(withheld);
  CHECK(withheld->name ==
        "CompleteLifecycleAction AutoScalingGroupName=runners InstanceId=i-1 "
        "LifecycleActionResult=CONTINUE LifecycleHookName=drain");
  CHECK(withheld->answer.id == 7);
  CHECK(withheld->answer.status_code == 200);
  CHECK(withheld->answer.body.starts_with("<CompleteLifecycleActionResponse"));
  for (const char* action : {"SetInstanceProtection", "SetDesiredCapacity",
                             "TerminateInstanceInAutoScalingGroup", "SetInstanceHealth"}) {
    CAPTURE(action);
    CHECK(dry_run_withholding(post_action(std::string{"Action="} + action)));
  }
}

TEST_CASE("a dry run withholds unregistration and webhooks, naming no secret", "[dry_run]") {
  const auto gitlab = dry_run_withholding({.id = 3,
                                           .method = "DELETE",
                                           .url = "https://gitlab.example.com/api/v4/runners",
                                           .body = "token=glrt-secret"});
  REQUIRE(gitlab);
  CHECK(gitlab->name == "DELETE https://gitlab.example.com/api/v4/runners");
  CHECK(gitlab->answer.status_code == 204);
  const auto github = dry_run_withholding(
      {.method = "DELETE", .url = "https://api.github.com/repos/o/r/actions/runners/42"});
  REQUIRE(github);
  CHECK(github->name == "DELETE https://api.github.com/repos/o/r/actions/runners/42");
  const auto webhook =
      dry_run_withholding({.method = "POST",
                           .url = "https://user:pw@hooks.example.com:8443/services/T/B/secret?x=1",
                           .body = "{}"});
  REQUIRE(webhook);
  CHECK(webhook->name == "POST to hooks.example.com (webhook or callback)");
  CHECK(webhook->answer.status_code == 200);
}
