// See unregister_plan.hpp.
#include "src/unregister/unregister_plan.hpp"

#include "src/util/secret_file.hpp"

namespace runwarden {

namespace {

// A glrt- token is shared by every machine of the runner; without the system id only the
// whole runner could be deleted, which would unregister all of them.
std::string check_gitlab_runner(const gitlab_runner& runner) {
  if (uses_runner_manager(runner) && runner.system_id.empty())
    return label_of(runner) +
           ": a glrt- token needs the runner's system id (unregister.gitlab.system_id_file, or "
           "gitlab-runner's .runner_system_id), since without it every machine sharing the "
           "token would be unregistered";
  return {};
}

unregister_plan_result gitlab_plan(const unregister_settings& settings,
                                   const std::vector<gitlab_runner>& discovered,
                                   unregister_plan plan) {
  const gitlab_unregister_settings& gitlab = settings.gitlab;
  if (gitlab.url.empty()) {
    if (discovered.empty())
      return {{},
              "unregister.kind is \"gitlab\", but neither [unregister.gitlab] url and "
              "token_file nor gitlab-runner's config.toml name a runner"};
    for (const gitlab_runner& runner : discovered) {
      if (auto error = check_gitlab_runner(runner); !error.empty()) return {{}, error};
      plan.targets.emplace_back(runner);
    }
    return {std::move(plan), {}};
  }
  gitlab_runner runner{gitlab.name, gitlab.url, {}, {}};
  auto token = read_secret_file(gitlab.token_file, "unregister.gitlab token file");
  if (!token.secret) return {{}, token.error};
  runner.token = std::move(*token.secret);
  if (!gitlab.system_id_file.empty()) {
    auto system_id = read_secret_file(gitlab.system_id_file, "unregister.gitlab system id file",
                                      file_exposure::not_secret);
    if (!system_id.secret) return {{}, system_id.error};
    runner.system_id = std::move(*system_id.secret);
  }
  if (auto error = check_gitlab_runner(runner); !error.empty()) return {{}, error};
  plan.targets.emplace_back(std::move(runner));
  return {std::move(plan), {}};
}

unregister_plan_result github_plan(const unregister_settings& settings, unregister_plan plan) {
  const github_unregister_settings& github = settings.github;
  auto token = read_secret_file(github.token_file, "unregister.github token file");
  if (!token.secret) return {{}, token.error};
  plan.targets.emplace_back(github_runner{github.api_url, github.scope, github.owner, github.repo,
                                          github.org, github.enterprise, github.runner_name,
                                          std::move(*token.secret)});
  return {std::move(plan), {}};
}

}  // namespace

unregister_plan_result plan_unregistration(const unregister_settings& settings,
                                           const std::vector<gitlab_runner>& discovered) {
  unregister_plan plan;
  plan.limits = {settings.retry_initial, settings.retry_max, settings.attempts_max};
  plan.timeout = settings.timeout;
  switch (settings.kind) {
    case unregister_kind::none:
      return {std::move(plan), {}};
    case unregister_kind::gitlab:
      return gitlab_plan(settings, discovered, std::move(plan));
    case unregister_kind::github:
      return github_plan(settings, std::move(plan));
  }
  return {{}, "unknown unregister.kind"};  // Only a value cast from outside the enum gets here.
}

}  // namespace runwarden
