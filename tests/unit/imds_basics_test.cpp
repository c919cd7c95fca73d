// The small pure parts of the metadata watcher, table by table: where the service is, the
// token's acceptance and refresh point, the lifecycle state words, the JSON documents and
// the RFC 3339 times inside them.
#include <catch2/catch.hpp>

#include "src/aws/imds/imds_documents.hpp"
#include "src/aws/imds/imds_endpoint.hpp"
#include "src/aws/imds/imds_token_cache.hpp"
#include "src/aws/imds/target_lifecycle_state.hpp"
#include "src/util/rfc3339_time.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

wall_time utc(std::chrono::sys_days day, std::chrono::nanoseconds time_of_day) {
  return std::chrono::time_point_cast<wall_time::duration>(day + time_of_day);
}

constexpr auto day_2017_09_18 = std::chrono::sys_days{std::chrono::year{2017} / 9 / 18};

}  // namespace

TEST_CASE("the endpoint: config, then the variable, then the link-local default", "[imds]") {
  const environment_map none;
  const environment_map set{{"AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:1338/"}};
  CHECK(resolve_imds_endpoint(std::nullopt, none).endpoint == "http://169.254.169.254");
  CHECK(resolve_imds_endpoint(std::nullopt, set).endpoint == "http://127.0.0.1:1338");
  CHECK(resolve_imds_endpoint(std::string{"http://[fd00:ec2::254]"}, set).endpoint ==
        "http://[fd00:ec2::254]");
  CHECK(resolve_imds_endpoint(std::nullopt, {{"AWS_EC2_METADATA_SERVICE_ENDPOINT", ""}}).endpoint ==
        "http://169.254.169.254");
  const auto bad = resolve_imds_endpoint(
      std::nullopt, {{"AWS_EC2_METADATA_SERVICE_ENDPOINT", "169.254.169.254"}});
  CHECK(bad.endpoint.empty());
  CHECK(bad.error ==
        "AWS_EC2_METADATA_SERVICE_ENDPOINT \"169.254.169.254\" must start with http:// or "
        "https://");
  CHECK_THAT(resolve_imds_endpoint(std::string{"http://host/latest"}, none).error,
             Catch::StartsWith("aws.imds_endpoint \"http://host/latest\" must be only a scheme"));
  CHECK(imds_endpoint_problem("http://") == "has no host");
  CHECK(imds_endpoint_problem("http://:80") == "has no host");
  CHECK(imds_endpoint_problem("https://a b").has_value());
  CHECK_FALSE(imds_endpoint_problem("https://imds.example:8443"));
}

TEST_CASE("a token answer is accepted only when it can be a token", "[imds]") {
  const auto good = accept_imds_token("AQAEAHnE9Xzz==", std::nullopt, 21600s);
  CHECK(good.token == "AQAEAHnE9Xzz==");
  CHECK(good.ttl == 21600s);
  CHECK(accept_imds_token("t", std::string{"60"}, 21600s).ttl == 60s);
  CHECK(accept_imds_token("t", std::string{"99999"}, 600s).ttl == 600s);
  CHECK(accept_imds_token("", std::nullopt, 60s).error == "the token answer is empty");
  CHECK(accept_imds_token("<html>\n</html>", std::nullopt, 60s).error ==
        "the token answer holds characters a token cannot");
  CHECK(accept_imds_token(std::string(2000, 'a'), std::nullopt, 60s).error ==
        "the token answer is longer than a token can be");
  for (const char* ttl : {"", "0", "-5", "10s", "1e3"}) {
    CAPTURE(ttl);
    CHECK(accept_imds_token("t", std::string{ttl}, 60s).error ==
          "the token's TTL header is not a positive number of seconds");
  }
}

TEST_CASE("a token is reused until 80% of its TTL, and not after a drop", "[imds]") {
  imds_token_cache cache;
  CHECK_FALSE(cache.usable(instant{0}));
  cache.store("secret", 100s, instant{10s});
  CHECK(cache.usable(instant{10s}) == "secret");
  CHECK(cache.usable(instant{89s}) == "secret");
  CHECK_FALSE(cache.usable(instant{90s}));
  cache.store("fresh", 100s, instant{90s});
  CHECK(cache.usable(instant{100s}) == "fresh");
  cache.drop();
  CHECK_FALSE(cache.usable(instant{100s}));
}

TEST_CASE("lifecycle states read exactly as AWS writes them", "[imds]") {
  for (const auto state : all_target_lifecycle_states)
    CHECK(parse_target_lifecycle_state(to_string(state)) == state);
  CHECK(parse_target_lifecycle_state("Warmed:Terminated\n") ==
        target_lifecycle_state::warmed_terminated);
  CHECK(to_string(target_lifecycle_state::in_service) == "InService");
  for (const char* text : {"", " ", "terminated", "Terminating", "Warmed:", "InService2"}) {
    CAPTURE(text);
    CHECK_FALSE(parse_target_lifecycle_state(text));
  }
}

TEST_CASE("RFC 3339 times with zones and fractions", "[imds]") {
  CHECK(parse_rfc3339("2017-09-18T08:22:00Z") == utc(day_2017_09_18, 8h + 22min));
  CHECK(parse_rfc3339("2017-09-18T08:22:00.250Z") == utc(day_2017_09_18, 8h + 22min + 250ms));
  CHECK(parse_rfc3339("2017-09-18T10:22:00+02:00") == utc(day_2017_09_18, 8h + 22min));
  CHECK(parse_rfc3339("2017-09-18T07:52:00-00:30") == utc(day_2017_09_18, 8h + 22min));
  CHECK(parse_rfc3339("2262-04-10T23:59:59.999999999Z"));
  CHECK(parse_rfc3339("1970-01-01T00:00:00Z") == std::chrono::system_clock::time_point{});
  for (const char* text :
       {"", "2017-09-18", "2017-09-18T08:22:00", "2017-02-30T00:00:00Z", "2017-09-18T24:00:00Z",
        "2017-09-18 08:22:00Z", "2017-09-18T08:22:00.Z", "2017-09-18T08:22:00+0200",
        "x017-09-18T08:22:00Z",
        // Outside what system_clock holds (found by fuzzing).
        "4048-02-26T23:59:59.123Z", "2262-04-12T00:00:00Z", "9999-12-31T23:59:59Z",
        "1969-12-31T23:59:59Z", "1970-01-01T00:30:00+01:00"}) {
    CAPTURE(text);
    CHECK_FALSE(parse_rfc3339(text));
  }
}

TEST_CASE("spot notices parse fully or give an error naming the problem", "[imds]") {
  const auto notice =
      parse_spot_instance_action(R"({"action": "terminate", "time": "2017-09-18T08:22:00Z"})");
  REQUIRE(notice.notice);
  CHECK(notice.notice->action == "terminate");
  CHECK(notice.notice->time == utc(day_2017_09_18, 8h + 22min));
  const std::vector<std::pair<std::string, std::string>> bad{
      {"<html><body>502 Bad Gateway</body></html>",
       "spot instance-action is not JSON (an error page from a proxy?)"},
      {R"({"action": "terminate", "time": )",
       "spot instance-action is not JSON (an error page from a proxy?)"},
      {R"(["terminate"])", "spot instance-action is JSON but not an object"},
      {R"({"time": "2017-09-18T08:22:00Z"})", "spot instance-action has no \"action\" string"},
      {R"({"action": "stop"})", "spot instance-action has no \"time\" string"},
      {R"({"action": "stop", "time": 5})", "spot instance-action has no \"time\" string"},
      {R"({"action": "stop", "time": "soon"})",
       "spot instance-action \"time\" is not an RFC 3339 time"},
  };
  for (const auto& [body, error] : bad) {
    CAPTURE(body);
    const auto parsed = parse_spot_instance_action(body);
    CHECK_FALSE(parsed.notice);
    CHECK(parsed.error == error);
  }
}

TEST_CASE("rebalance notices and the identity document", "[imds]") {
  CHECK(parse_rebalance_recommendation(R"({"noticeTime": "2017-09-18T08:22:00Z"})").notice_time ==
        utc(day_2017_09_18, 8h + 22min));
  CHECK(parse_rebalance_recommendation(R"({"noticeTime": ""})").error ==
        "rebalance recommendation has no \"noticeTime\" string");
  const auto identity = parse_instance_identity(
      R"({"accountId": "123456789012", "architecture": "x86_64", "region": "eu-west-1",
          "instanceId": "i-0abcdef1234567890", "pendingTime": "2024-01-01T00:00:00Z"})");
  REQUIRE(identity.identity);
  CHECK(*identity.identity ==
        instance_identity{"i-0abcdef1234567890", "eu-west-1", "123456789012"});
  CHECK(parse_instance_identity(R"({"instanceId": "i-1", "region": "eu-west-1"})").error ==
        "instance identity document has no \"accountId\" string");
  CHECK(parse_instance_identity("Service Unavailable").error ==
        "instance identity document is not JSON (an error page from a proxy?)");
}
