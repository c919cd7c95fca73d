#pragma once
// The [unregister] tables of settings (config/runwarden.toml): which CI server the runner is
// removed from, and how hard runwarden tries. They live with the unregister module, which
// plans the removal from them; src/config/settings.hpp gathers them with the others.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "src/unregister/unregister_target.hpp"

namespace runwarden {

// Removing the runner from its CI server as a drain phase. Tokens come from files
// (or, for GitLab, from gitlab-runner's own config.toml), never from the command line.
enum class unregister_kind : std::uint8_t { none, gitlab, github };

struct gitlab_unregister_settings {
  // Empty url and token_file: the runners discovered in gitlab-runner's config.toml.
  std::string name;  // for reports only
  std::string url;
  std::string token_file;
  std::string system_id_file;  // needed for glrt- tokens
};

struct github_unregister_settings {
  std::string api_url = "https://api.github.com";
  github_scope scope = github_scope::repo;
  std::string owner;  // repo scope: owner and repo
  std::string repo;
  std::string org;         // org scope
  std::string enterprise;  // enterprise scope
  std::string runner_name;
  std::string token_file;
};

struct unregister_settings {
  unregister_kind kind = unregister_kind::none;
  std::chrono::milliseconds timeout{std::chrono::seconds{30}};  // per request
  std::chrono::milliseconds retry_initial{std::chrono::seconds{1}};
  std::chrono::milliseconds retry_max{std::chrono::minutes{5}};
  std::uint32_t attempts_max = 0;  // 0: retry until the server confirms
  // Unconfirmed this long after it began, the unregistration sends the
  // unregistration_failing webhook (once per drain) and keeps trying. None: never.
  std::optional<std::chrono::milliseconds> alert_after{std::chrono::minutes{10}};
  gitlab_unregister_settings gitlab;
  github_unregister_settings github;
};

}  // namespace runwarden
