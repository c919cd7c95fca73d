#pragma once
// What makes `runwarden wrapper` a drop-in for `gitlab-runner wrapper` (checked against
// gitlab-runner 19.4's commands/wrapper.go and helpers/runner_wrapper/wrapper.go): its
// defaults (gitlab-runner wrapper's listen address, staying up once the runner is gone), what
// it insists on (the gitlab kind, never a restart), the runner command after `--` (`run ...`
// means gitlab-runner's own subcommand, as the real wrapper runs itself), and gitlab-runner's
// config.toml, found where gitlab-runner finds it.

#include <string>
#include <vector>

#include "src/config/settings.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

// The base the config file and the flags are read over.
settings wrapper_defaults();

// One message for each setting that wrapper mode cannot take.
std::vector<std::string> check_wrapper(const settings& config);

// `run ...` and `run-single ...` become `gitlab-runner run ...`; any other command is kept.
std::vector<std::string> wrapper_command(std::vector<std::string> command);

// Sets runner.gitlab_config, when unset, to the config.toml gitlab-runner itself reads (the
// command's --config or -c, else CONFIG_FILE, else its default path), if that file exists.
void find_gitlab_config(settings& config, const environment_map& environment, bool is_root);

}  // namespace runwarden
