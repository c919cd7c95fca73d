// See unregister_target.hpp.
#include "src/unregister/unregister_target.hpp"

#include "src/util/url_userinfo.hpp"

namespace runwarden {

namespace {

std::string scope_text(const github_runner& runner) {
  switch (runner.scope) {
    case github_scope::repo:
      return "repository " + runner.owner + "/" + runner.repo;
    case github_scope::org:
      return "organization " + runner.org;
    case github_scope::enterprise:
      return "enterprise " + runner.enterprise;
  }
  return "an unknown scope";  // Only a value cast from outside the enum gets here.
}

}  // namespace

std::string_view to_string(github_scope scope) {
  switch (scope) {
    case github_scope::repo:
      return "repo";
    case github_scope::org:
      return "org";
    case github_scope::enterprise:
      return "enterprise";
  }
  return "unknown";
}

bool uses_runner_manager(const gitlab_runner& runner) {
  return runner.token.starts_with(gitlab_manager_token_prefix);
}

std::string label_of(const unregister_target& target) {
  if (const auto* gitlab = std::get_if<gitlab_runner>(&target)) {
    const std::string name = gitlab->name.empty() ? "" : " \"" + gitlab->name + "\"";
    return "gitlab runner" + name + " at " + redact_url_userinfo(gitlab->url);
  }
  const auto& github = std::get<github_runner>(target);
  return "github runner \"" + github.runner_name + "\" in " + scope_text(github);
}

const std::string& token_of(const unregister_target& target) {
  return std::visit([](const auto& runner) -> const std::string& { return runner.token; }, target);
}

}  // namespace runwarden
