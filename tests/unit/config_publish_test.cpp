// [scaling] publish, publish_interval, publish_namespace and scaler: good values, defaults
// (nothing published, every 10 s when it is, the built-in scaler), and refusals with file,
// line and key.
#include <catch2/catch.hpp>

#include "src/config/config_file.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

config_result parse(const std::string& text) { return parse_config_text(text, "test.toml"); }

}  // namespace

TEST_CASE("[scaling] publish keys take their good values", "[config][cloudwatch]") {
  const auto result = parse(R"([cloud]
provider = "aws"
[scaling]
enabled = true
scaler = "group"
publish = "cloudwatch"
publish_interval = "60s"
publish_namespace = "CI/Runners"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const auto& scaling = result.config->scaling;
  CHECK(scaling.publish == metrics_publish::cloudwatch);
  CHECK(scaling.publish_interval == 60s);
  CHECK(scaling.publish_namespace == "CI/Runners");
  CHECK_FALSE(scaling.policy.decide_capacity);
}

TEST_CASE("[scaling] publish defaults: nothing, every 10 s to Runwarden, built-in scaler",
          "[config][cloudwatch]") {
  const auto result = parse("");
  REQUIRE(result.config);
  const auto& scaling = result.config->scaling;
  CHECK(scaling.publish == metrics_publish::none);
  CHECK(scaling.publish_interval == 10s);
  CHECK(scaling.publish_namespace == "Runwarden");
  CHECK(scaling.policy.decide_capacity);
}

TEST_CASE("[scaling] publish refusals name the key and line", "[config][cloudwatch]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> rows{
      {"[scaling]\npublish = \"cloudwatch\"",
       {"test.toml:2: scaling.publish: \"cloudwatch\" needs cloud.provider = \"aws\" (or "
        "\"auto\"): the points carry the instance's Auto Scaling group, found through the "
        "instance metadata service"}},
      {"[cloud]\nprovider = \"aws\"\n[scaling]\npublish_interval = \"1500ms\"",
       {"test.toml:4: scaling.publish_interval: must be whole seconds from \"1s\" to \"60s\": "
        "CloudWatch files points by the second, and target tracking needs one a minute at "
        "least"}},
      {"[scaling]\npublish_namespace = \"AWS/EC2\"",
       {"test.toml:2: scaling.publish_namespace: must be at most 255 characters, not start "
        "with ':' and not with \"AWS/\", which is AWS's own"}},
      {"[cloud]\nprovider = \"aws\"\n[scaling]\nscaler = \"group\"",
       {"test.toml:4: scaling.scaler: \"group\" keeps scale-in protection while busy, which "
        "needs scaling.enabled = true"}},
  };
  for (const auto& [text, errors] : rows) {
    CAPTURE(text);
    const auto result = parse(text);
    CHECK_FALSE(result.config);
    CHECK(result.errors == errors);
  }
}
