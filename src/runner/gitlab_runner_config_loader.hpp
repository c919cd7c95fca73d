#pragma once
// Reads gitlab-runner's config.toml and the system id file beside it
// (`.runner_system_id`), then checks them with gitlab_runner_config.hpp. The only I/O of
// runner discovery.

#include <cstddef>
#include <filesystem>

#include "src/runner/gitlab_runner_config.hpp"

namespace runwarden {

// A config.toml is a page of settings; anything this large is the wrong file.
inline constexpr std::size_t gitlab_runner_config_bytes_max = 1024 * 1024;

// A missing or unreadable system id file is no error (runners before 15.x wrote none):
// system_id stays empty and system_id_problem says why.
gitlab_runner_config_result load_gitlab_runner_config(const std::filesystem::path& config_path);

}  // namespace runwarden
