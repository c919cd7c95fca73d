// PutMetricData as runwarden sends it: the body is byte for byte what botocore's query
// serializer makes of the same input (recorded with Debian's python3-botocore 1.29:
// create_serializer("query").serialize_to_request on cloudwatch's PutMetricData, then
// urlencode), the call names its IAM permission, and CloudWatch's endpoint resolves by its own
// names (AWS_ENDPOINT_URL_CLOUDWATCH, monitoring.{region}).
#include <catch2/catch.hpp>

#include "src/aws/autoscaling_endpoint.hpp"
#include "src/aws/cloudwatch_requests.hpp"
#include "src/util/form_encoding.hpp"

using namespace runwarden;

namespace {

std::chrono::system_clock::time_point at_2026_11_29_08_50_07() {
  using namespace std::chrono;
  return sys_days{year{2026} / 11 / 29} + hours{8} + minutes{50} + seconds{7} + milliseconds{250};
}

}  // namespace

TEST_CASE("PutMetricData matches botocore's serializer", "[cloudwatch]") {
  const std::vector<std::pair<std::string, std::string>> group{
      {"AutoScalingGroupName", "ci runners"}};
  const auto at = at_2026_11_29_08_50_07();
  const auto call = put_metric_data(
      "Runwarden", {{"JobSlotsBusy", group, at, 3}, {"JobSlotsTotal", group, at, 4}});
  CHECK(call.action == "PutMetricData");
  CHECK(form_encode(call.parameters) ==
        "Action=PutMetricData&Version=2010-08-01&Namespace=Runwarden"
        "&MetricData.member.1.MetricName=JobSlotsBusy"
        "&MetricData.member.1.Dimensions.member.1.Name=AutoScalingGroupName"
        "&MetricData.member.1.Dimensions.member.1.Value=ci+runners"
        "&MetricData.member.1.Timestamp=2026-11-29T08%3A50%3A07Z"
        "&MetricData.member.1.Value=3&MetricData.member.1.Unit=Count"
        "&MetricData.member.1.StorageResolution=1"
        "&MetricData.member.2.MetricName=JobSlotsTotal"
        "&MetricData.member.2.Dimensions.member.1.Name=AutoScalingGroupName"
        "&MetricData.member.2.Dimensions.member.1.Value=ci+runners"
        "&MetricData.member.2.Timestamp=2026-11-29T08%3A50%3A07Z"
        "&MetricData.member.2.Value=4&MetricData.member.2.Unit=Count"
        "&MetricData.member.2.StorageResolution=1");
  CHECK(required_permission(call) == "cloudwatch:PutMetricData");
}

TEST_CASE("CloudWatch's endpoint: its own override, the global one, the region", "[cloudwatch]") {
  const auto regional = resolve_query_endpoint({}, "eu-west-1", cloudwatch_query_service);
  REQUIRE(regional.endpoint);
  CHECK(regional.endpoint->url == "https://monitoring.eu-west-1.amazonaws.com/");
  const auto specific =
      resolve_query_endpoint({{"AWS_ENDPOINT_URL", "http://127.0.0.1:1"},
                              {"AWS_ENDPOINT_URL_CLOUDWATCH", "http://127.0.0.1:2/"},
                              {"AWS_ENDPOINT_URL_AUTO_SCALING", "http://127.0.0.1:3/"}},
                             "eu-west-1", cloudwatch_query_service);
  REQUIRE(specific.endpoint);
  CHECK(specific.endpoint->host_header == "127.0.0.1:2");
  CHECK(specific.endpoint->source == "AWS_ENDPOINT_URL_CLOUDWATCH");
  // Auto Scaling's override is not CloudWatch's.
  CHECK(resolve_query_endpoint({{"AWS_ENDPOINT_URL_AUTO_SCALING", "http://127.0.0.1:3/"}},
                               "eu-west-1", cloudwatch_query_service)
            .endpoint->url == "https://monitoring.eu-west-1.amazonaws.com/");
}
