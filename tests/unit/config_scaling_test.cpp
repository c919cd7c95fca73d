// The [scaling] table: each key's good values, the defaults, and the refusals with file,
// line and key, as the rest of the config tests pin them (config_file_test.cpp).
#include <catch2/catch.hpp>

#include "src/config/config_file.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

config_result parse(const std::string& text) { return parse_config_text(text, "test.toml"); }

}  // namespace

TEST_CASE("[scaling] keys take their good values", "[config][scaling]") {
  const auto result = parse(R"([cloud]
provider = "aws"
[scaling]
enabled = true
capacity = 4
window = "90s"
dip_tolerance = "0s"
step = 2
ceiling = 20
idle_threshold = "15m"
cooldown = "3m"
honor_cooldown = false
jitter = "0s"
protect_while_busy = false
protection_release = "2m"
protection_interval_min = "1m"
retry_initial = "5s"
retry_max = "1m"
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const auto& scaling = result.config->scaling;
  CHECK(scaling.enabled);
  CHECK(scaling.capacity == 4u);
  CHECK(scaling.policy.window == 90s);
  CHECK(scaling.policy.dip_tolerance == 0s);
  CHECK(scaling.policy.step == 2);
  CHECK(scaling.policy.ceiling == 20);
  CHECK(scaling.policy.idle_threshold == 15min);
  CHECK(scaling.policy.cooldown == 3min);
  CHECK_FALSE(scaling.policy.honor_cooldown);
  CHECK(scaling.policy.jitter == 0s);
  CHECK_FALSE(scaling.policy.protect_while_busy);
  CHECK(scaling.policy.protection_release == 2min);
  CHECK(scaling.policy.protection_interval_min == 1min);
  CHECK(scaling.policy.retry_initial == 5s);
  CHECK(scaling.policy.retry_max == 1min);
}

TEST_CASE("[scaling] defaults: off, capacity from gitlab-runner, 2m window, step 1",
          "[config][scaling]") {
  const auto result = parse("");
  REQUIRE(result.config);
  const auto& scaling = result.config->scaling;
  CHECK_FALSE(scaling.enabled);
  CHECK_FALSE(scaling.capacity);
  CHECK(scaling.policy.window == 2min);
  CHECK(scaling.policy.dip_tolerance == 20s);
  CHECK(scaling.policy.step == 1);
  CHECK_FALSE(scaling.policy.ceiling);
  CHECK(scaling.policy.idle_threshold == 10min);
  CHECK(scaling.policy.cooldown == 5min);
  CHECK(scaling.policy.honor_cooldown);
  CHECK(scaling.policy.jitter == 30s);
  CHECK(scaling.policy.protect_while_busy);
}

TEST_CASE("[scaling] keys refuse bad values, naming file, line and key", "[config][scaling]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> rows{
      {"[scaling]\nidle_threshold = \"0s\"",
       {"test.toml:2: scaling.idle_threshold: must be greater than zero (a zero threshold "
        "would give an instance up between two jobs)"}},
      {"[scaling]\nidle_threshold = \"-5m\"",
       {"test.toml:2: scaling.idle_threshold: negative duration \"-5m\" (durations are zero "
        "or more)"}},
      {"[scaling]\nwindow = \"0s\"",
       {"test.toml:2: scaling.window: must be greater than zero (a zero window would scale "
        "up on a single saturated sample)"}},
      {"[scaling]\ncooldown = \"0s\"",
       {"test.toml:2: scaling.cooldown: must be greater than zero (a zero cooldown would "
        "call the group again before it could react)"}},
      {"[scaling]\nstep = 0", {"test.toml:2: scaling.step: 0 is not between 1 and 100000"}},
      {"[scaling]\ncapacity = 0", {"test.toml:2: scaling.capacity: 0 is not between 1 and 100000"}},
      {"[scaling]\nceiling = 0", {"test.toml:2: scaling.ceiling: 0 is not between 1 and 100000"}},
      {"[scaling]\nstep = 5\nceiling = 3",
       {"test.toml:2: scaling.step: step 5 is larger than scaling.ceiling (3): a scale-up "
        "could never add a whole step"}},
      {"[scaling]\nceiling = 3\nstep = 5",
       {"test.toml:3: scaling.step: step 5 is larger than scaling.ceiling (3): a scale-up "
        "could never add a whole step"}},
      {"[scaling]\nenabled = true",
       {"test.toml:2: scaling.enabled: needs cloud.provider = \"aws\": an instance that gives "
        "itself up is drained through its terminate lifecycle hook, which only the AWS "
        "provider watches"}},
      {"[scaling]\nenabled = \"yes\"",
       {"test.toml:2: scaling.enabled: expected true or false, got string"}},
      {"[scaling]\nretry_initial = \"10m\"\nretry_max = \"1m\"",
       {"test.toml:2: scaling.retry_initial: 10m is longer than scaling.retry_max (1m)"}},
      {"[scaling]\nprotection_interval_min = \"0s\"",
       {"test.toml:2: scaling.protection_interval_min: must be greater than zero (protection "
        "calls need a rate limit, or a busy runner would flood the Auto Scaling API)"}},
      {"[scaling]\nthreshold = \"5m\"", {"test.toml:2: scaling.threshold: unknown key"}},
  };
  for (const auto& [text, errors] : rows) {
    CAPTURE(text);
    const auto result = parse(text);
    CHECK_FALSE(result.config);
    CHECK(result.errors == errors);
  }
}
