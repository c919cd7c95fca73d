// cloud.provider "auto": which probe each cloud gets, at the endpoint its own
// settings name, and which answers count as that cloud's. The probes share 169.254.169.254,
// so an answer counts by what only its own service sends, never by its status alone.
#include <catch2/catch.hpp>

#include "src/app/cloud_detection.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

TEST_CASE("each cloud is probed where its own settings point", "[cloud]") {
  settings config;
  config.azure.metadata_endpoint = "http://127.0.0.1:9001";
  const auto probes = cloud_probes(config, {{"GCE_METADATA_HOST", "127.0.0.1:9002"}}, 1000ms);
  REQUIRE(probes.size() == 3);
  CHECK(probes[0].cloud == cloud_provider::aws);
  CHECK(probes[0].request.method == "PUT");
  CHECK(probes[0].request.url == "http://169.254.169.254/latest/api/token");
  CHECK(probes[0].request.headers ==
        http_header_list{{"X-aws-ec2-metadata-token-ttl-seconds", "60"}});
  CHECK(probes[1].request.url ==
        "http://127.0.0.1:9001/metadata/instance/compute?api-version=2021-02-01");
  CHECK(probes[1].request.headers == http_header_list{{"Metadata", "true"}});
  CHECK(probes[2].request.url == "http://127.0.0.1:9002/computeMetadata/v1/instance/id");
  CHECK(probes[2].request.headers == http_header_list{{"Metadata-Flavor", "Google"}});
  for (const auto& probe : probes) CHECK(probe.request.timeout == 1000ms);
  const auto bad = cloud_probes(config, {{"AWS_EC2_METADATA_SERVICE_ENDPOINT", "x"}}, 1000ms);
  CHECK(bad[0].request.url.empty());
  CHECK(bad[0].problem ==
        "AWS_EC2_METADATA_SERVICE_ENDPOINT \"x\" must start with http:// or "
        "https://");
}

TEST_CASE("an answer counts only with what its own service sends", "[cloud]") {
  const http_response token{
      1, 200, {}, "AQAEAFUsXpw==", {{"x-aws-ec2-metadata-token-ttl-seconds", "60"}}};
  CHECK(answers_as(cloud_provider::aws, token));
  CHECK_FALSE(answers_as(cloud_provider::aws, http_response{1, 200, {}, "token", {}}));
  CHECK_FALSE(answers_as(cloud_provider::aws, http_response{1, 405, {}, "", {}}));
  CHECK(
      answers_as(cloud_provider::azure, http_response{2, 200, {}, R"({"name": "runners_3"})", {}}));
  CHECK_FALSE(answers_as(cloud_provider::azure,
                         http_response{2, 200, {}, "<html>a captive portal</html>", {}}));
  CHECK(answers_as(
      cloud_provider::gcp,
      http_response{3, 200, {}, "4520031799277581759", {{"metadata-flavor", "Google"}}}));
  CHECK_FALSE(answers_as(cloud_provider::gcp, http_response{3, 200, {}, "1", {}}));
  CHECK_FALSE(answers_as(cloud_provider::gcp,
                         http_response{3, 403, {}, "", {{"metadata-flavor", "Google"}}}));
}
