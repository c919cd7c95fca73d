#pragma once
// What gitlab-runner's own command line (the runner command after `--`) says that runwarden
// needs: `run`'s --listen-address, which with the LISTEN_ADDRESS environment variable
// overrides config.toml's listen_address (commands/multi.go: `long:"listen-address"
// env:"LISTEN_ADDRESS"`, then listenAddress()), and --config (-c), where config.toml is.
// Go's flag parsing takes one or two dashes, and the value after "=" or as the next word.
// Pure: the environment's values come in as arguments.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runwarden {

struct gitlab_runner_flags {
  std::optional<std::string> listen_address;  // as written; may be empty
  std::optional<std::string> config_file;
};

gitlab_runner_flags read_gitlab_runner_flags(const std::vector<std::string>& command);

// The listen_address gitlab-runner uses: the flag, else LISTEN_ADDRESS, else config.toml's;
// an empty flag or variable counts as not given, as in listenAddress(). Empty: no metrics.
std::optional<std::string> effective_listen_address(const std::optional<std::string>& flag,
                                                    const std::optional<std::string>& environment,
                                                    const std::optional<std::string>& config_file);

// Where gitlab-runner looks for config.toml when no --config is given: CONFIG_FILE, else
// /etc/gitlab-runner/config.toml for root, else ~/.gitlab-runner/config.toml
// (commands/config_unix.go getDefaultConfigDirectory).
std::string default_gitlab_config_path(const std::optional<std::string>& config_file_variable,
                                       bool is_root, const std::string& home);

}  // namespace runwarden
