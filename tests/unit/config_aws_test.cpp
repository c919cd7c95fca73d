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
  const auto result = parse(R"([cloud]
provider = "aws"

[aws]
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
  CHECK(result.warnings.empty());
  CHECK(result.config->cloud.provider == cloud_provider::aws);
  const auto& aws = result.config->aws;
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
  CHECK(result.config->cloud.provider == cloud_provider::none);
  const auto& aws = result.config->aws;
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
      {"[cloud]\nprovider = \"oracle\"",
       {"test.toml:2: cloud.provider: unknown value \"oracle\" (expected \"none\", \"aws\", "
        "\"azure\", \"gcp\" or \"auto\")"}},
      {"[cloud]\nprovider = \"aws\"\n[aws]\nprovider = \"aws\"",
       {"test.toml:4: aws.provider: cloud.provider (line 2) replaces it: set the provider "
        "there only"}},
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
      {"[aws]\nspot_safety_margin = \"2m\"",
       {"test.toml:2: aws.spot_safety_margin: must be less than 120 s: a spot notice comes two "
        "minutes ahead, and a margin that long would stop the runner's jobs at the notice"}},
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

// Configs written before [cloud] existed keep working for a while, and say what to change.
TEST_CASE("[aws] provider still sets the provider, with a warning naming the new key",
          "[config][imds]") {
  const auto result = parse("[aws]\nprovider = \"aws\"\n");
  REQUIRE(result.config);
  CHECK(result.config->cloud.provider == cloud_provider::aws);
  CHECK(result.warnings ==
        std::vector<std::string>{"test.toml:2: aws.provider: is deprecated: write [cloud] provider "
                                 "instead (it takes the same values)"});
  const auto refused = parse("[aws]\nprovider = \"oracle\"\n");
  CHECK(refused.errors ==
        std::vector<std::string>{"test.toml:2: aws.provider: unknown value \"oracle\" (expected "
                                 "\"none\", \"aws\", \"azure\", \"gcp\" or \"auto\")"});
  CHECK(refused.warnings.empty());
}

TEST_CASE("aws.spot_poll_interval is 5 s unless set, within 100 ms and 30 s", "[config][imds]") {
  const auto defaults = parse("[aws]\npoll_interval = \"1s\"\n");
  REQUIRE(defaults.config);
  CHECK(defaults.config->aws.spot_poll_interval == 5s);
  const auto set = parse("[aws]\nspot_poll_interval = \"2s\"\n");
  REQUIRE(set.config);
  CHECK(set.config->aws.spot_poll_interval == 2s);
  for (const auto* text : {"50ms", "31s"})
    CHECK(parse(std::string{"[aws]\nspot_poll_interval = \""} + text + "\"\n").errors ==
          std::vector<std::string>{"test.toml:2: aws.spot_poll_interval: must be between 100 ms "
                                   "and 30 s (a spot notice comes two minutes ahead)"});
}

TEST_CASE("[aws] scheduled events keys and [aws.scheduled_events] actions", "[config][imds]") {
  const auto result = parse(R"([aws]
scheduled_events_interval = "5m"
scheduled_event_margin = "1m"
scheduled_event_lead_time = "10m"

[aws.scheduled_events]
instance-stop = "drain_ahead"
system-maintenance = "drain"
other = "drain"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const auto& aws = result.config->aws;
  CHECK(aws.scheduled_events_interval == 5min);
  CHECK(aws.scheduled_events.margin == 1min);
  CHECK(aws.scheduled_events.lead_time == 10min);
  CHECK(aws.scheduled_events.actions.at("instance-stop") == scheduled_event_action::drain_ahead);
  CHECK(aws.scheduled_events.actions.at("system-maintenance") == scheduled_event_action::drain);
  CHECK(aws.scheduled_events.actions.at("instance-reboot") == scheduled_event_action::drain_ahead);
  CHECK(aws.scheduled_events.other_codes == scheduled_event_action::drain);
  const auto off = parse("[aws]\nscheduled_events_interval = \"none\"\n");
  REQUIRE(off.config);
  CHECK_FALSE(off.config->aws.scheduled_events_interval);
  const std::vector<std::pair<std::string, std::string>> rows{
      {"[aws]\nscheduled_events_interval = \"100ms\"",
       "test.toml:2: aws.scheduled_events_interval: must be at least 1 s (EC2 schedules events "
       "days ahead)"},
      {"[aws]\nscheduled_event_margin = \"2m\"",
       "test.toml:2: aws.scheduled_event_margin: the margin (2m) must be shorter than "
       "aws.scheduled_event_lead_time (2m), or a drain_ahead would start past its own deadline"},
      {"[aws.scheduled_events]\ninstance-stop = \"stop\"",
       "test.toml:2: aws.scheduled_events.instance-stop: unknown value \"stop\" (expected "
       "\"drain\", \"drain_ahead\" or \"log\")"},
      {"[aws.scheduled_events]\ninstance-reboots = \"log\"",
       "test.toml:2: aws.scheduled_events.instance-reboots: unknown key (did you mean "
       "aws.scheduled_events.instance-reboot?)"},
  };
  for (const auto& [text, error] : rows) {
    CAPTURE(text);
    CHECK(parse(text).errors == std::vector<std::string>{error});
  }
}

TEST_CASE("[cloud] gcp and the [gcp] keys", "[config][gcp]") {
  const auto result = parse(R"([cloud]
provider = "gcp"

[gcp]
metadata_endpoint = "http://127.0.0.1:8080"
wait_timeout = "30s"
preemption_deadline = "20s"
host_maintenance_deadline = "55m"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  CHECK(result.config->cloud.provider == cloud_provider::gcp);
  const auto& gcp = result.config->gcp;
  CHECK(gcp.metadata_endpoint == "http://127.0.0.1:8080");
  CHECK(gcp.wait_timeout == 30s);
  CHECK(gcp.notices.preemption_deadline == 20s);
  CHECK(gcp.notices.host_maintenance_deadline == 55min);
  const auto defaults = parse("");
  REQUIRE(defaults.config);
  CHECK_FALSE(defaults.config->gcp.metadata_endpoint);
  CHECK(defaults.config->gcp.wait_timeout == 5min);
  CHECK(defaults.config->gcp.notices.preemption_deadline == 25s);
  CHECK(defaults.config->gcp.notices.host_maintenance_deadline == 50s);
  const std::vector<std::pair<std::string, std::string>> rows{
      {"[gcp]\nmetadata_endpoint = \"metadata.google.internal\"",
       "test.toml:2: gcp.metadata_endpoint: must start with http:// or https://"},
      {"[gcp]\nwait_timeout = \"2h\"", "test.toml:2: gcp.wait_timeout: must be from 10s to 3600s"},
      {"[gcp]\npreemption_deadline = \"0s\"",
       "test.toml:2: gcp.preemption_deadline: must be greater than zero (a zero deadline would "
       "kill running jobs at once)"},
  };
  for (const auto& [text, error] : rows) {
    CAPTURE(text);
    CHECK(parse(text).errors == std::vector<std::string>{error});
  }
}

TEST_CASE("[cloud] azure and the [azure] keys", "[config][azure]") {
  const auto result = parse(R"([cloud]
provider = "azure"

[azure]
metadata_endpoint = "http://127.0.0.1:8080"
poll_interval = "500ms"
notice_margin = "10s"
reboot = "drain"
redeploy = "drain"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  CHECK(result.config->cloud.provider == cloud_provider::azure);
  const auto& azure = result.config->azure;
  CHECK(azure.metadata_endpoint == "http://127.0.0.1:8080");
  CHECK(azure.poll_interval == 500ms);
  CHECK(azure.events.margin == 10s);
  CHECK(azure.events.reboot == azure_optional_action::drain);
  CHECK(azure.events.redeploy == azure_optional_action::drain);
  const auto defaults = parse("");
  REQUIRE(defaults.config);
  CHECK(defaults.config->azure.poll_interval == 1s);
  CHECK(defaults.config->azure.events == azure_event_policy{});
  const std::vector<std::pair<std::string, std::string>> rows{
      {"[azure]\npoll_interval = \"1m\"",
       "test.toml:2: azure.poll_interval: must be from 100ms to 10s (a Preempt gives 30 s in "
       "all)"},
      {"[azure]\nreboot = \"drian\"",
       "test.toml:2: azure.reboot: unknown value \"drian\" (expected \"log\" or \"drain\")"},
      {"[azure]\nfreeze = \"drain\"", "test.toml:2: azure.freeze: unknown key"},
  };
  for (const auto& [text, error] : rows) {
    CAPTURE(text);
    CHECK(parse(text).errors == std::vector<std::string>{error});
  }
}
