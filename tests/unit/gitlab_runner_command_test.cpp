// What runwarden reads from gitlab-runner's own command line and environment, as gitlab-runner
// reads them (commands/multi.go: ListenAddress `long:"listen-address" env:"LISTEN_ADDRESS"`,
// ConfigFile `short:"c" long:"config" env:"CONFIG_FILE"`; listenAddress() falls back to
// config.toml when the flag and the variable are empty; commands/config_unix.go for the
// default config.toml).
#include "src/runner/gitlab_runner_command.hpp"

#include <catch2/catch.hpp>

namespace {

using namespace runwarden;
using command = std::vector<std::string>;

}  // namespace

TEST_CASE("the runner's --listen-address and --config in each spelling Go takes",
          "[gitlab_runner][command]") {
  const auto flags = read_gitlab_runner_flags(
      {"gitlab-runner", "run", "--listen-address", ":9300", "--config", "/etc/a.toml"});
  CHECK(flags.listen_address == ":9300");
  CHECK(flags.config_file == "/etc/a.toml");
  CHECK(read_gitlab_runner_flags({"gitlab-runner", "run", "--listen-address=[::]:1"})
            .listen_address == "[::]:1");
  CHECK(
      read_gitlab_runner_flags({"gitlab-runner", "run", "-listen-address", "h:2"}).listen_address ==
      "h:2");
  CHECK(read_gitlab_runner_flags({"gitlab-runner", "run", "-c", "/c.toml"}).config_file ==
        "/c.toml");
  CHECK(read_gitlab_runner_flags({"gitlab-runner", "run", "--config=/d.toml"}).config_file ==
        "/d.toml");
  // The last one wins; after "--" nothing is a flag; a flag's missing value is no value.
  CHECK(read_gitlab_runner_flags({"r", "--listen-address", "a:1", "--listen-address", "b:2"})
            .listen_address == "b:2");
  CHECK_FALSE(read_gitlab_runner_flags({"r", "--", "--listen-address", "a:1"}).listen_address);
  CHECK_FALSE(read_gitlab_runner_flags({"r", "run", "--listen-address"}).listen_address);
  CHECK_FALSE(read_gitlab_runner_flags({"r", "run", "--listen-addressx=1"}).listen_address);
  CHECK_FALSE(read_gitlab_runner_flags(command{}).config_file);
}

TEST_CASE("the flag, then LISTEN_ADDRESS, then config.toml, empty counts as not given",
          "[gitlab_runner][command]") {
  const std::optional<std::string> none;
  CHECK(effective_listen_address(":1", ":2", ":3") == ":1");
  CHECK(effective_listen_address(none, ":2", ":3") == ":2");
  CHECK(effective_listen_address("", ":2", ":3") == ":2");
  CHECK(effective_listen_address(none, "", ":3") == ":3");
  CHECK(effective_listen_address(none, none, ":3") == ":3");
  CHECK_FALSE(effective_listen_address(none, none, none));  // metrics off
  CHECK_FALSE(effective_listen_address("", "", ""));
}

TEST_CASE("config.toml where gitlab-runner looks for it", "[gitlab_runner][command]") {
  CHECK(default_gitlab_config_path("/x/config.toml", true, "/root") == "/x/config.toml");
  CHECK(default_gitlab_config_path(std::nullopt, true, "/root") ==
        "/etc/gitlab-runner/config.toml");
  CHECK(default_gitlab_config_path("", false, "/home/ci") == "/home/ci/.gitlab-runner/config.toml");
}
