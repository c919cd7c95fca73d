// `runwarden wrapper`'s own rules, against gitlab-runner 19.4's commands/wrapper.go (its
// default listen address, the words after `--` being gitlab-runner's) and commands/multi.go
// and config_unix.go (where config.toml is read from).
#include "src/app/wrapper_mode.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

namespace {

using namespace runwarden;
using words = std::vector<std::string>;

}  // namespace

TEST_CASE("wrapper defaults: gitlab-runner wrapper's address, lingering, never a restart",
          "[wrapper]") {
  const settings defaults = wrapper_defaults();
  CHECK(defaults.control.grpc_listen == "tcp://localhost:7777");
  CHECK(defaults.control.linger_after_gone.forever);
  CHECK(check_wrapper(defaults).empty());
  settings restarting = defaults;
  restarting.restart.type = restart_type::transient;
  restarting.runner.kind = runner_kind_name::generic;
  const auto errors = check_wrapper(restarting);
  REQUIRE(errors.size() == 2);
  CHECK_THAT(errors[0], Catch::Contains("runner.kind must be gitlab"));
  CHECK_THAT(errors[1], Catch::Contains("restart.policy must be temporary"));
}

TEST_CASE("the words after -- are gitlab-runner's subcommand or a whole command", "[wrapper]") {
  CHECK(wrapper_command({"run", "--working-directory", "/w"}) ==
        words{"gitlab-runner", "run", "--working-directory", "/w"});
  CHECK(wrapper_command({"run-single", "-u", "x"}) ==
        words{"gitlab-runner", "run-single", "-u", "x"});
  CHECK(wrapper_command({"/opt/bin/gitlab-runner", "run"}) ==
        words{"/opt/bin/gitlab-runner", "run"});
  CHECK(wrapper_command({"./run"}) == words{"./run"});
  CHECK(wrapper_command({}).empty());
}

TEST_CASE("config.toml is found where gitlab-runner reads it, when it is there", "[wrapper]") {
  const auto directory = std::filesystem::temp_directory_path() / "runwarden-wrapper-mode-test";
  std::filesystem::create_directories(directory / ".gitlab-runner");
  const auto from_flag = (directory / "flag.toml").string();
  const auto from_variable = (directory / "variable.toml").string();
  const auto in_home = (directory / ".gitlab-runner" / "config.toml").string();
  for (const auto& path : {from_flag, from_variable, in_home}) std::ofstream{path} << "\n";
  const environment_map environment{{"CONFIG_FILE", from_variable}, {"HOME", directory.string()}};
  const auto found = [&](words command, const environment_map& env) {
    settings config;
    config.runner.command = std::move(command);
    find_gitlab_config(config, env, false);
    return config.runner.gitlab_config;
  };
  CHECK(found({"gitlab-runner", "run", "--config", from_flag}, environment) == from_flag);
  CHECK(found({"gitlab-runner", "run", "-c", from_flag}, environment) == from_flag);
  CHECK(found({"gitlab-runner", "run"}, environment) == from_variable);
  CHECK(found({"gitlab-runner", "run"}, {{"HOME", directory.string()}}) == in_home);
  CHECK(found({"gitlab-runner", "run", "--config", from_flag + ".missing"}, environment).empty());
  settings told;
  told.runner.gitlab_config = "/etc/elsewhere.toml";
  find_gitlab_config(told, environment, false);
  CHECK(told.runner.gitlab_config == "/etc/elsewhere.toml");
  std::filesystem::remove_all(directory);
}
