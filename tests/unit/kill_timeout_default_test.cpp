// The kill timeout each runner kind gets when drain.kill_timeout is unset: gitlab-runner's own
// shutdown_timeout (common/config.go GetShutdownTimeout, 30 s by default in common/consts.go)
// plus a margin, since after SIGTERM gitlab-runner waits that long for aborted jobs to clean
// up (commands/multi.go handleForcefulShutdown); 10 s for a generic runner.
#include <catch2/catch.hpp>

#include "src/assembly/drain_config_from_settings.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

settings for_command(std::vector<std::string> command) {
  settings config;
  config.runner.command = std::move(command);
  return config;
}

}  // namespace

TEST_CASE("gitlab-runner gets its own shutdown_timeout plus a margin before SIGKILL",
          "[kill_timeout]") {
  const auto gitlab = for_command({"/usr/bin/gitlab-runner", "run"});
  CHECK(make_drain_config(gitlab, 1).kill_timeout == 35s);
  CHECK(make_drain_config(gitlab, 1, std::chrono::seconds{120}).kill_timeout == 125s);
  auto told = gitlab;
  told.drain.kill_timeout = 3s;  // --kill-timeout, --process-termination-timeout
  CHECK(make_drain_config(told, 1, std::chrono::seconds{120}).kill_timeout == 3s);
  auto named = for_command({"/opt/start-runner.sh"});
  named.runner.kind = runner_kind_name::gitlab;
  CHECK(make_drain_config(named, 1).kill_timeout == 35s);
}

TEST_CASE("a generic runner gets 10 s before SIGKILL", "[kill_timeout]") {
  CHECK(make_drain_config(for_command({"/usr/bin/worker"}), 1).kill_timeout == 10s);
}
