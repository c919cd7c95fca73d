// See gitlab_runner_command.hpp.
#include "src/runner/gitlab_runner_command.hpp"

#include <initializer_list>

namespace runwarden {

namespace {

// The value of flag `name` (given without dashes) in `command`, the last one winning as in
// Go's flag parsing; nullopt when absent. "--name=v", "-name=v", "--name v", "-name v".
std::optional<std::string> flag_value(const std::vector<std::string>& command,
                                      std::initializer_list<std::string_view> names) {
  std::optional<std::string> found;
  for (std::size_t index = 0; index < command.size(); ++index) {
    std::string_view word = command[index];
    if (word == "--") break;  // Go stops reading flags here
    if (!word.starts_with('-')) continue;
    word.remove_prefix(word.starts_with("--") ? 2 : 1);
    for (const std::string_view name : names) {
      if (word == name && index + 1 < command.size()) {
        found = command[index + 1];
      } else if (word.starts_with(name) && word.size() > name.size() && word[name.size()] == '=') {
        found = std::string{word.substr(name.size() + 1)};
      }
    }
  }
  return found;
}

bool given(const std::optional<std::string>& value) { return value && !value->empty(); }

}  // namespace

gitlab_runner_flags read_gitlab_runner_flags(const std::vector<std::string>& command) {
  return {.listen_address = flag_value(command, {"listen-address"}),
          .config_file = flag_value(command, {"config", "c"})};
}

std::optional<std::string> effective_listen_address(const std::optional<std::string>& flag,
                                                    const std::optional<std::string>& environment,
                                                    const std::optional<std::string>& config_file) {
  if (given(flag)) return flag;
  if (given(environment)) return environment;
  if (given(config_file)) return config_file;
  return std::nullopt;
}

std::string default_gitlab_config_path(const std::optional<std::string>& config_file_variable,
                                       bool is_root, const std::string& home) {
  if (given(config_file_variable)) return *config_file_variable;
  if (is_root || home.empty()) return "/etc/gitlab-runner/config.toml";
  return home + "/.gitlab-runner/config.toml";
}

}  // namespace runwarden
