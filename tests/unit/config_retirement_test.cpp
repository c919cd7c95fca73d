// The retirement keys of the [runner] table: good values, defaults (today's behaviour), and
// the refusals with file, line and key, as the rest of the config tests pin them.
#include <catch2/catch.hpp>

#include "src/config/config_file.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

config_result parse(const std::string& text) { return parse_config_text(text, "test.toml"); }

}  // namespace

TEST_CASE("retirement keys take their good values", "[config][retirement]") {
  const auto result = parse(R"([cloud]
provider = "aws"
[runner]
after_exit = "retire"
on_give_up = "unhealthy"
recycle_after_jobs = 50
recycle_after_uptime = "336h"
recycle_disk_path = "/var/lib/builds"
recycle_disk_percent = 90
idle_retire_after = "15m"
retire_command = ["/usr/bin/systemctl", "poweroff"]
retire_decrement_capacity = false
)");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const auto& policy = result.config->retirement;
  CHECK(policy.after_exit == after_exit_action::retire);
  CHECK(policy.on_give_up == give_up_choice::unhealthy);
  CHECK(policy.recycle.after_jobs == 50u);
  CHECK(policy.recycle.after_uptime == std::chrono::milliseconds{14 * 24h});
  CHECK(policy.recycle.disk_path == "/var/lib/builds");
  CHECK(policy.recycle.disk_used_percent_max == 90u);
  CHECK(policy.idle_retire_after == std::chrono::milliseconds{15min});
  CHECK(policy.end.command == std::vector<std::string>{"/usr/bin/systemctl", "poweroff"});
  CHECK(policy.end.decrement_desired_capacity == false);
}

TEST_CASE("retirement defaults: restart, exit past the budget, no recycling",
          "[config][retirement]") {
  const auto result = parse("");
  REQUIRE(result.config);
  CHECK(result.config->retirement == retirement_policy{});
  CHECK(result.config->retirement.after_exit == after_exit_action::restart);
  CHECK(result.config->retirement.on_give_up == give_up_choice::exit);
}

TEST_CASE("retirement keys refuse bad values, naming file, line and key", "[config][retirement]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> rows{
      {"[runner]\nafter_exit = \"stop\"",
       {"test.toml:2: runner.after_exit: unknown value \"stop\" (expected \"restart\" or "
        "\"retire\")"}},
      {"[runner]\non_give_up = \"terminate\"",
       {"test.toml:2: runner.on_give_up: unknown value \"terminate\" (expected \"exit\", "
        "\"unhealthy\" or \"retire\")"}},
      {"[runner]\non_give_up = \"unhealthy\"",
       {"test.toml:2: runner.on_give_up: \"unhealthy\" needs cloud.provider = \"aws\": only an "
        "Auto Scaling group replaces an instance marked unhealthy"}},
      {"[runner]\nrecycle_after_jobs = 0",
       {"test.toml:2: runner.recycle_after_jobs: 0 is not between 1 and 1000000"}},
      {"[runner]\nrecycle_after_uptime = \"0s\"",
       {"test.toml:2: runner.recycle_after_uptime: must be greater than zero (a zero uptime "
        "would recycle the instance the moment it starts)"}},
      {"[runner]\nrecycle_disk_path = \"builds\"\nrecycle_disk_percent = 90",
       {"test.toml:2: runner.recycle_disk_path: \"builds\" is not an absolute path"}},
      {"[runner]\nrecycle_disk_percent = 101\nrecycle_disk_path = \"/b\"",
       {"test.toml:2: runner.recycle_disk_percent: 101 is not between 1 and 100"}},
      {"[runner]\nrecycle_disk_percent = 90",
       {"test.toml:2: runner.recycle_disk_percent: needs runner.recycle_disk_path: the disk "
        "whose use is measured"}},
      {"[runner]\nrecycle_disk_path = \"/b\"",
       {"test.toml:2: runner.recycle_disk_path: needs runner.recycle_disk_percent: the use "
        "past which the instance recycles"}},
      {"[runner]\nidle_retire_after = \"15m\"",
       {"test.toml:2: runner.idle_retire_after: needs runner.after_exit = \"retire\": only a "
        "one-job runner retires for taking no job"}},
      {"[runner]\nafter_exit = \"retire\"\nidle_retire_after = \"0s\"",
       {"test.toml:3: runner.idle_retire_after: must be greater than zero (a zero bound would "
        "retire the runner before it could take a job)"}},
      {"[runner]\nretire_command = \"poweroff\"",
       {"test.toml:2: runner.retire_command: expected an array of strings (argv, run without "
        "a shell), got string"}},
      {"[runner]\nretire_command = []",
       {"test.toml:2: runner.retire_command: must not be empty (leave the key out for no "
        "command)"}},
      {"[runner]\nretire_command = [\"poweroff\"]",
       {"test.toml:2: runner.retire_command[0]: the executable must be an absolute path (no "
        "shell and no PATH lookup run it)"}},
      {"[runner]\nretire_decrement_capacity = \"yes\"",
       {"test.toml:2: runner.retire_decrement_capacity: expected true or false, got string"}},
  };
  for (const auto& [text, errors] : rows) {
    CAPTURE(text);
    const auto result = parse(text);
    CHECK_FALSE(result.config);
    CHECK(result.errors == errors);
  }
}
