#pragma once
// From settings to what the unregistrar removes: the runners, with their tokens read from
// their files, and the retry limits. This is where token files are read, once, before the
// drain phase starts; errors name the file and what it was for, never its content.
//
// The hook for gitlab-runner's config.toml: with kind = "gitlab" and no [unregister.gitlab]
// url and token_file, the runners are the ones `discovered` there (each with its url, token
// and the system id from gitlab-runner's .runner_system_id file); whoever parses that file
// passes them in.

#include <string>
#include <vector>

#include "src/unregister/retry_schedule.hpp"
#include "src/unregister/unregister_settings.hpp"
#include "src/unregister/unregister_target.hpp"

namespace runwarden {

struct unregister_plan {
  std::vector<unregister_target> targets;  // empty for kind = "none"
  unregister_retry_limits limits;
  std::chrono::milliseconds timeout{0};
};

struct unregister_plan_result {
  unregister_plan plan;
  std::string error;  // empty when the plan is good
};

unregister_plan_result plan_unregistration(const unregister_settings& settings,
                                           const std::vector<gitlab_runner>& discovered = {});

}  // namespace runwarden
