#pragma once
// What is to be unregistered: one GitLab runner (manager) or one GitHub Actions runner, with
// the token that proves the right to remove it. The token is only ever put into a request;
// reports name a runner by its label, which never contains the token.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "src/unregister/gitlab_token_source.hpp"

namespace runwarden {

// A runner registered in GitLab. Tokens starting with "glrt-" (runners created in the UI or
// API) are shared by every machine of the runner, each one a "manager" told apart by its
// system id: only that manager is removed. Older registration tokens remove the runner.
struct gitlab_runner {
  std::string name;       // for reports; may be empty
  std::string url;        // the GitLab instance, "https://gitlab.example.com"
  std::string token;      // the runner's authentication token
  std::string system_id;  // gitlab-runner's .runner_system_id; required for glrt- tokens
  // Found in gitlab-runner's config.toml: where the token is read again before each attempt
  // and after a 403, since gitlab-runner rotates it there (token_rotation.hpp).
  std::optional<gitlab_token_source> token_source = std::nullopt;
};

enum class github_scope : std::uint8_t { repo, org, enterprise };

std::string_view to_string(github_scope scope);

// A self-hosted GitHub Actions runner, found by its name within its scope.
struct github_runner {
  std::string api_url = "https://api.github.com";  // GitHub Enterprise Server: its /api/v3
  github_scope scope = github_scope::repo;
  std::string owner;       // repo scope
  std::string repo;        // repo scope
  std::string org;         // org scope
  std::string enterprise;  // enterprise scope
  std::string runner_name;
  std::string token;  // a token allowed to administer the scope's runners
};

using unregister_target = std::variant<gitlab_runner, github_runner>;

inline constexpr std::string_view gitlab_manager_token_prefix = "glrt-";

bool uses_runner_manager(const gitlab_runner& runner);

// "gitlab runner NAME at URL" or "github runner NAME in SCOPE": what reports call the runner.
std::string label_of(const unregister_target& target);

// The token, for redaction in reports.
const std::string& token_of(const unregister_target& target);

}  // namespace runwarden
