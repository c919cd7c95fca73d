// See runner_awareness.hpp.
#include "src/assembly/runner_awareness.hpp"

#include <type_traits>
#include <variant>

#include "src/logging/logging.hpp"
#include "src/runner/gitlab_runner_command.hpp"
#include "src/runner/gitlab_runner_config_loader.hpp"

namespace runwarden {

runner_awareness::runner_awareness() = default;
runner_awareness::~runner_awareness() = default;

namespace {

// Each entry gitlab-runner runs, with where its token is read again (it may be rotated). An
// entry without a usable token is skipped, as gitlab-runner 19.1+ skips it (HasToken()).
std::vector<gitlab_runner> runners_of(const gitlab_runner_config& config,
                                      const std::string& config_path) {
  std::vector<gitlab_runner> runners;
  for (std::size_t index = 0; index < config.runners.size(); ++index) {
    const auto& entry = config.runners[index];
    if (!has_token(entry)) {
      warden_logger()->warn("{}:{}: [[runners]] entry \"{}\" has no token; gitlab-runner skips "
                            "it, and runwarden does not unregister it",
                            config_path, entry.line, entry.name);
      continue;
    }
    runners.push_back(gitlab_runner{.name = entry.name,
                                    .url = entry.url,
                                    .token = std::string{entry.token.reveal()},
                                    .system_id = config.system_id.value_or(""),
                                    .token_source = gitlab_token_source{
                                        config_path, key_of(config, index)}});
  }
  return runners;
}

std::optional<std::string> variable(const environment_map& environment, const char* name) {
  const auto found = environment.find(name);
  if (found == environment.end()) return std::nullopt;
  return found->second;
}

// gitlab-runner's own listen address, from its command, environment and config.toml.
std::string gitlab_metrics_url(const settings& config, const environment_map& environment,
                               const std::optional<std::string>& from_config_file) {
  const auto flags = read_gitlab_runner_flags(config.runner.command);
  const auto address = effective_listen_address(
      flags.listen_address, variable(environment, "LISTEN_ADDRESS"), from_config_file);
  if (!address) return "";
  if (auto url = metrics_url(*address)) return *url;
  warden_logger()->warn("gitlab-runner's listen address \"{}\" is not one it can listen on; "
                        "its metrics are not read", *address);
  return "";
}

}  // namespace

runner_awareness::start_result runner_awareness::plan(const settings& config,
                                                      const environment_map& environment) {
  std::unique_ptr<runner_awareness> awareness{new runner_awareness};
  awareness->metrics_url_ = config.runner.metrics_url;
  awareness->metrics_interval_ = config.runner.metrics_interval;
  awareness->metrics_interval_draining_ = config.runner.metrics_interval_draining;
  const auto kind = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  std::optional<std::string> config_listen_address;
  std::vector<gitlab_runner> discovered;
  if (!config.runner.gitlab_config.empty()) {
    auto loaded = load_gitlab_runner_config(config.runner.gitlab_config);
    if (!loaded.config) {
      std::string errors;
      for (const auto& error : loaded.errors) errors += (errors.empty() ? "" : "\n") + error;
      return {nullptr, errors};
    }
    if (!loaded.config->system_id_problem.empty())
      warden_logger()->warn("gitlab-runner's system id: {}", loaded.config->system_id_problem);
    config_listen_address = loaded.config->listen_address;
    awareness->gitlab_shutdown_timeout_ = loaded.config->shutdown_timeout;
    discovered = runners_of(*loaded.config, config.runner.gitlab_config);
  }
  const bool gitlab = kind == runner_kind_name::gitlab || !config.runner.gitlab_config.empty();
  if (awareness->metrics_url_.empty() && gitlab)
    awareness->metrics_url_ = gitlab_metrics_url(config, environment, config_listen_address);
  auto planned = plan_unregistration(config.unregister, discovered);
  if (!planned.error.empty()) return {nullptr, planned.error};
  if (!planned.plan.targets.empty()) {
    awareness->unregister_url_ = std::visit(
        [](const auto& target) -> std::string {
          if constexpr (std::is_same_v<std::decay_t<decltype(target)>, github_runner>)
            return target.api_url;
          else
            return target.url;
        },
        planned.plan.targets.front());
    awareness->unregistration_plan_ = std::make_unique<unregister_plan>(std::move(planned.plan));
  }
  if (awareness->metrics_url_.empty())
    warden_logger()->info("no runner metrics configured: the runner's jobs stay unknown");
  return {std::move(awareness), {}};
}

}  // namespace runwarden
