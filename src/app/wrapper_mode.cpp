// See wrapper_mode.hpp.
#include "src/app/wrapper_mode.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>

#include "src/runner/gitlab_runner_command.hpp"

namespace runwarden {

// gitlab-runner wrapper's own listen address (commands/wrapper.go defaultWrapperGRPCListen),
// and staying up once the runner is gone, as the real wrapper does until it is signalled.
settings wrapper_defaults() {
  settings base;
  base.runner.kind = runner_kind_name::gitlab;
  base.restart.type = restart_type::temporary;
  base.control.grpc_listen = "tcp://localhost:7777";
  base.control.linger_after_gone = linger_policy{.forever = true};
  return base;
}

// The real wrapper never restarts its process; it reports `stopped` and the failure instead.
std::vector<std::string> check_wrapper(const settings& config) {
  std::vector<std::string> errors;
  if (config.runner.kind != runner_kind_name::gitlab)
    errors.push_back("runwarden wrapper runs gitlab-runner: runner.kind must be gitlab");
  if (config.restart.type != restart_type::temporary)
    errors.push_back(
        "runwarden wrapper never restarts the runner (gitlab-runner's wrapper "
        "reports it stopped instead): restart.policy must be temporary");
  return errors;
}

// `gitlab-runner wrapper -- run ...` runs gitlab-runner itself with the words after `--`;
// `runwarden wrapper -- run ...` runs the gitlab-runner on PATH with them.
std::vector<std::string> wrapper_command(std::vector<std::string> command) {
  constexpr std::string_view runner_subcommands[] = {"run", "run-single"};
  if (!command.empty() && std::find(std::begin(runner_subcommands), std::end(runner_subcommands),
                                    command.front()) != std::end(runner_subcommands))
    command.insert(command.begin(), "gitlab-runner");
  return command;
}

void find_gitlab_config(settings& config, const environment_map& environment, bool is_root) {
  if (!config.runner.gitlab_config.empty()) return;
  auto path = read_gitlab_runner_flags(config.runner.command).config_file;
  if (!path || path->empty()) {
    const auto variable = [&](const char* name) -> std::optional<std::string> {
      const auto found = environment.find(name);
      return found == environment.end() ? std::nullopt : std::optional{found->second};
    };
    path =
        default_gitlab_config_path(variable("CONFIG_FILE"), is_root, variable("HOME").value_or(""));
  }
  std::error_code error;
  if (std::filesystem::is_regular_file(*path, error)) config.runner.gitlab_config = *path;
}

}  // namespace runwarden
