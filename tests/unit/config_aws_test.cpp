// The [aws] table: each key's good values and its refusals, with file, line and key, as
// the rest of the config tests pin them (config_file_test.cpp).
#include <catch2/catch.hpp>

#include "src/config/config_file.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

config_result parse(const std::string& text) { return parse_config_text(text, "test.toml"); }

}  // namespace

TEST_CASE("[aws] keys take their good values", "[config][imds]") {
  const auto result = parse(R"([aws]
provider = "aws"
imds_endpoint = "http://127.0.0.1:8080/"
poll_interval = "250ms"
drain_states = ["Terminated", "Detached", "Standby", "Terminated"]
spot_safety_margin = "0s"
rebalance = "drain"
imds_v1_fallback = true
complete_lifecycle_hooks = false
lifecycle_hook = "drain-runner"
launch_hook = "warm-up"
launch_ready_timeout = "90s"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const auto& aws = result.config->aws;
  CHECK(aws.provider == lifecycle_provider::aws);
  CHECK(aws.imds_endpoint == "http://127.0.0.1:8080/");
  CHECK(aws.poll_interval == 250ms);
  CHECK(aws.watch.drain_states ==
        std::vector<target_lifecycle_state>{target_lifecycle_state::terminated,
                                            target_lifecycle_state::detached,
                                            target_lifecycle_state::standby});
  CHECK(aws.watch.spot_safety_margin == 0ms);
  CHECK(aws.watch.rebalance == rebalance_action::drain);
  CHECK(aws.imds_v1_fallback);
  CHECK_FALSE(aws.complete_lifecycle_hooks);
  CHECK(aws.lifecycle_hook == "drain-runner");
  CHECK(aws.launch_hook == "warm-up");
  CHECK(aws.launch_ready_timeout == 90s);
}

TEST_CASE("[aws] defaults: off, 1 s, Terminated and Warmed:Terminated, 30 s, log",
          "[config][imds]") {
  const auto result = parse("");
  REQUIRE(result.config);
  const auto& aws = result.config->aws;
  CHECK(aws.provider == lifecycle_provider::none);
  CHECK_FALSE(aws.imds_endpoint);
  CHECK(aws.poll_interval == 1s);
  CHECK(aws.watch.drain_states ==
        std::vector<target_lifecycle_state>{target_lifecycle_state::terminated,
                                            target_lifecycle_state::warmed_terminated});
  CHECK(aws.watch.spot_safety_margin == 30s);
  CHECK(aws.watch.rebalance == rebalance_action::log);
  CHECK_FALSE(aws.imds_v1_fallback);
  CHECK(aws.complete_lifecycle_hooks);
  CHECK_FALSE(aws.lifecycle_hook);
  CHECK_FALSE(aws.launch_hook);
  CHECK(aws.launch_ready_timeout == 10min);
}

TEST_CASE("[aws] keys refuse bad values, naming file, line and key", "[config][imds]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> rows{
      {"[aws]\nprovider = \"gcp\"",
       {"test.toml:2: aws.provider: unknown value \"gcp\" (expected \"none\" or \"aws\")"}},
      {"[aws]\nimds_endpoint = \"169.254.169.254\"",
       {"test.toml:2: aws.imds_endpoint: must start with http:// or https://"}},
      {"[aws]\nimds_endpoint = \"\"",
       {"test.toml:2: aws.imds_endpoint: must not be empty (leave the key out for "
        "AWS_EC2_METADATA_SERVICE_ENDPOINT or http://169.254.169.254)"}},
      {"[aws]\npoll_interval = \"50ms\"",
       {"test.toml:2: aws.poll_interval: must be at least 100 ms (each poll makes several "
        "requests)"}},
      {"[aws]\ndrain_states = \"Terminated\"",
       {"test.toml:2: aws.drain_states: expected an array of lifecycle states such as "
        "[\"Terminated\"], got string"}},
      {"[aws]\ndrain_states = [\n  \"InService\",\n  \"terminated\",\n]",
       {"test.toml:3: aws.drain_states[0]: unknown value \"InService\" (expected "
        "\"Terminated\", \"Detached\", \"Standby\", \"Warmed:Terminated\", \"Warmed:Stopped\", "
        "\"Warmed:Running\" or \"Warmed:Hibernated\")",
        "test.toml:4: aws.drain_states[1]: unknown value \"terminated\" (expected "
        "\"Terminated\", \"Detached\", \"Standby\", \"Warmed:Terminated\", \"Warmed:Stopped\", "
        "\"Warmed:Running\" or \"Warmed:Hibernated\")"}},
      {"[aws]\nspot_safety_margin = \"-5s\"",
       {"test.toml:2: aws.spot_safety_margin: negative duration \"-5s\" (durations are zero "
        "or more)"}},
      {"[aws]\nrebalance = \"terminate\"",
       {"test.toml:2: aws.rebalance: unknown value \"terminate\" (expected \"ignore\", \"log\" "
        "or \"drain\")"}},
      {"[aws]\nimds_v1_fallback = \"yes\"",
       {"test.toml:2: aws.imds_v1_fallback: expected true or false, got string"}},
      {"[aws]\nlifecycle_hook = \"\"",
       {"test.toml:2: aws.lifecycle_hook: must not be empty (leave the key out to answer the "
        "group's only terminate hook)"}},
      {"[aws]\nlaunch_ready_timeout = \"0s\"",
       {"test.toml:2: aws.launch_ready_timeout: must be greater than zero (the runner needs "
        "time to start)"}},
  };
  for (const auto& [text, errors] : rows) {
    CAPTURE(text);
    const auto result = parse(text);
    CHECK_FALSE(result.config);
    CHECK(result.errors == errors);
  }
}
