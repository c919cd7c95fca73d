// Where Auto Scaling calls go, and the signed HTTP request for one call: the service's own
// override wins over the global one, which wins over the regional default; bad overrides
// are errors naming the variable. The signed request is checked against botocore's recorded
// signature for the same call.

#include <catch2/catch.hpp>

#include "src/aws/autoscaling_endpoint.hpp"
#include "src/aws/autoscaling_http_request.hpp"

using namespace runwarden;

TEST_CASE("the Auto Scaling endpoint: override, global override, region", "[autoscaling]") {
  const auto regional = resolve_autoscaling_endpoint({}, "eu-central-1");
  REQUIRE(regional.endpoint);
  CHECK(regional.endpoint->url == "https://autoscaling.eu-central-1.amazonaws.com/");
  CHECK(regional.endpoint->host_header == "autoscaling.eu-central-1.amazonaws.com");
  CHECK(regional.endpoint->path == "/");
  CHECK(resolve_autoscaling_endpoint({}, "cn-north-1").endpoint->url ==
        "https://autoscaling.cn-north-1.amazonaws.com.cn/");

  const auto global =
      resolve_autoscaling_endpoint({{"AWS_ENDPOINT_URL", "http://127.0.0.1:4566"}}, "us-east-1");
  REQUIRE(global.endpoint);
  CHECK(global.endpoint->host_header == "127.0.0.1:4566");
  CHECK(global.endpoint->path == "/");
  CHECK(global.endpoint->source == "AWS_ENDPOINT_URL");

  const auto specific = resolve_autoscaling_endpoint(
      {{"AWS_ENDPOINT_URL", "http://127.0.0.1:4566"},
       {"AWS_ENDPOINT_URL_AUTO_SCALING", "https://vpce-1.autoscaling.example/asg"}},
      "us-east-1");
  REQUIRE(specific.endpoint);
  CHECK(specific.endpoint->host_header == "vpce-1.autoscaling.example");
  CHECK(specific.endpoint->path == "/asg");
  CHECK(specific.endpoint->source == "AWS_ENDPOINT_URL_AUTO_SCALING");
}

TEST_CASE("bad endpoints and regions are errors naming their source", "[autoscaling]") {
  CHECK(resolve_autoscaling_endpoint({{"AWS_ENDPOINT_URL", "ftp://host/"}}, "us-east-1").error ==
        "AWS_ENDPOINT_URL is not an http:// or https:// URL with a host");
  const auto garbage =
      resolve_autoscaling_endpoint({{"AWS_ENDPOINT_URL_AUTO_SCALING", "not a url"}}, "x");
  CHECK(garbage.error ==
        "AWS_ENDPOINT_URL_AUTO_SCALING is not an http:// or https:// URL with a host");
  CHECK(resolve_autoscaling_endpoint({{"AWS_ENDPOINT_URL", "http://h/?a=b"}}, "us-east-1").error ==
        "AWS_ENDPOINT_URL has a user, query or fragment; only scheme, host, port and path are "
        "allowed");
  CHECK(resolve_autoscaling_endpoint({}, "").error ==
        "the region \"\" is not a region name like us-east-1");
  CHECK(resolve_autoscaling_endpoint({}, "us-east-1.evil.com/x").error ==
        "the region \"us-east-1.evil.com/x\" is not a region name like us-east-1");
}

TEST_CASE("a signed Auto Scaling request is what botocore sends", "[autoscaling]") {
  const auto endpoint = resolve_autoscaling_endpoint({}, "us-east-1").endpoint.value();
  const aws_credentials credentials{
      "AKIDEXAMPLE", secret_text{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}, {}};
  const auto time = std::chrono::sys_days{std::chrono::year{2026} / 11 / 22} +
                    std::chrono::hours{1} + std::chrono::minutes{33} + std::chrono::seconds{32};
  const auto request = sign_autoscaling_call(
      complete_lifecycle_action_call({"my-hook", "my-asg", "i-1234567890abcdef0", {}},
                                     lifecycle_action_result::proceed),
      endpoint, credentials, "us-east-1", time);
  CHECK(request.method == "POST");
  CHECK(request.url == "https://autoscaling.us-east-1.amazonaws.com/");
  CHECK(request.body ==
        "Action=CompleteLifecycleAction&Version=2011-01-01&LifecycleHookName=my-hook&"
        "AutoScalingGroupName=my-asg&LifecycleActionResult=CONTINUE&"
        "InstanceId=i-1234567890abcdef0");
  const header_list expected{
      {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
      {"Host", "autoscaling.us-east-1.amazonaws.com"},
      {"X-Amz-Date", "20261122T013332Z"},
      {"Authorization",
       "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261122/us-east-1/autoscaling/aws4_request, "
       "SignedHeaders=content-type;host;x-amz-date, "
       "Signature=da285e0b4f1a986407117e6e71d3047f4f8195101bcdee23059d8f9cb9656754"}};
  CHECK(request.headers == expected);
}
