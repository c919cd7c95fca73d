// See instance_inputs.hpp. The refusals read as planning worded them before the split.
#include "src/assembly/instance_inputs.hpp"

#include <cstddef>
#include <fstream>
#include <sstream>
#include <utility>

#include "src/aws/shared_credentials_file.hpp"
#include "src/logging/logging.hpp"
#include "src/runner/gitlab_runner_config_loader.hpp"
#include "src/runner/gitlab_runner_entry_key.hpp"
#include "src/webhook/webhook_secret.hpp"

namespace runwarden {

namespace {

std::optional<std::string> file_content(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream file{path, std::ios::binary};
  if (!file) return std::nullopt;
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

// Each entry gitlab-runner runs, with where its token is read again (it may be rotated): the
// unregistrar reads it at each attempt (gitlab_token_source), so the plan holds only where.
// An entry without a usable token is skipped, as gitlab-runner 19.1+ skips it (HasToken()).
std::vector<gitlab_runner> runners_of(const gitlab_runner_config& config,
                                      const std::string& config_path) {
  std::vector<gitlab_runner> runners;
  for (std::size_t index = 0; index < config.runners.size(); ++index) {
    const auto& entry = config.runners[index];
    if (!has_token(entry)) {
      warden_logger()->warn(
          "{}:{}: [[runners]] entry \"{}\" has no token; gitlab-runner skips "
          "it, and runwarden does not unregister it",
          config_path, entry.line, entry.name);
      continue;
    }
    runners.push_back(
        gitlab_runner{.name = entry.name,
                      .url = entry.url,
                      .token = std::string{entry.token.reveal()},
                      .system_id = config.system_id.value_or(""),
                      .token_source = gitlab_token_source{config_path, key_of(config, index)}});
  }
  return runners;
}

}  // namespace

gathered_inputs gather_instance_inputs(const settings& config, environment_map environment) {
  instance_inputs inputs{.config = config, .environment = std::move(environment)};
  if (!config.runner.gitlab_config.empty()) {
    auto loaded = load_gitlab_runner_config(config.runner.gitlab_config);
    if (!loaded.config) {
      std::string errors;
      for (const auto& error : loaded.errors) errors += (errors.empty() ? "" : "\n") + error;
      return {std::nullopt, errors};
    }
    inputs.gitlab_runner = std::move(loaded.config);
  }
  // The token files are read by the unregistration's own planning, so it runs here.
  auto unregistration = plan_unregistration(
      config.unregister, inputs.gitlab_runner
                             ? runners_of(*inputs.gitlab_runner, config.runner.gitlab_config)
                             : std::vector<gitlab_runner>{});
  if (!unregistration.error.empty()) return {std::nullopt, std::move(unregistration.error)};
  inputs.unregistration = std::move(unregistration.plan);
  if (!config.webhook.secret_file.empty()) {
    auto read = read_webhook_secret(config.webhook.secret_file);
    if (!read.secret) return {std::nullopt, "webhook: " + read.error};
    inputs.webhook_secret = std::move(*read.secret);
  }
  if (config.cloud.provider == cloud_provider::aws)
    inputs.aws_shared_credentials = file_content(shared_credentials_path(inputs.environment));
  if (config.kubernetes.enabled && config.kubernetes.pod_namespace.empty())
    inputs.kubernetes_namespace =
        file_content(config.kubernetes.service_account_directory + "/namespace");
  return {std::move(inputs), {}};
}

}  // namespace runwarden
