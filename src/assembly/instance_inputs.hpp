#pragma once
// Everything an instance's plan reads from outside, gathered once: the settings, the
// environment, gitlab-runner's config.toml, the runners a drain unregisters (their token and
// system id files read), the webhook's secret and the AWS shared credentials file. Planning
// (instance_planning) is then pure: `runwarden run` and an embedding host gather from this
// machine, the simulation holds the same inputs in memory (src/sim/sim_inputs), and all three
// plan alike. Each file is read here and nowhere else, so config.toml is read once for the
// plan; at run time only the unregistrar reads it again, for a rotated token
// (gitlab_token_source: the plan holds where to read, not a reading).

#include <optional>
#include <string>

#include "src/config/settings.hpp"
#include "src/runner/gitlab_runner_config.hpp"
#include "src/unregister/unregister_plan.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

struct instance_inputs {
  settings config;
  environment_map environment;
  // runner.gitlab_config as read; nullopt when none is named.
  std::optional<gitlab_runner_config> gitlab_runner = std::nullopt;
  // Whom a drain unregisters, and how (unregister_plan.hpp); empty targets for kind none.
  unregister_plan unregistration = {};
  std::string webhook_secret = {};  // webhook.secret_file's content; empty without one
  // The AWS shared credentials file's content, when cloud.provider is aws and it exists.
  std::optional<std::string> aws_shared_credentials = std::nullopt;
  // The service account's namespace file, when [kubernetes] is on and names no namespace.
  std::optional<std::string> kubernetes_namespace = std::nullopt;
};

struct gathered_inputs {
  std::optional<instance_inputs> inputs;  // set exactly when error is empty
  std::string error;                      // a configuration problem: exit_config
};

// Reads every file the settings name, once.
gathered_inputs gather_instance_inputs(const settings& config, environment_map environment);

}  // namespace runwarden
