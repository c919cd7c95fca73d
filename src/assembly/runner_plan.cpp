// See runner_plan.hpp.
#include "src/assembly/runner_plan.hpp"

#include <type_traits>
#include <variant>

#include "src/logging/logging.hpp"
#include "src/runner/gitlab_runner_command.hpp"

namespace runwarden {

runner_plan::runner_plan() = default;
runner_plan::~runner_plan() = default;

namespace {

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
  warden_logger()->warn(
      "gitlab-runner's listen address \"{}\" is not one it can listen on; "
      "its metrics are not read",
      *address);
  return "";
}

}  // namespace

runner_plan::plan_result runner_plan::plan(const instance_inputs& inputs) {
  const auto& config = inputs.config;
  std::unique_ptr<runner_plan> planned{new runner_plan};
  planned->metrics_url_ = config.runner.metrics_url;
  planned->metrics_interval_ = config.runner.metrics_interval;
  planned->metrics_interval_draining_ = config.runner.metrics_interval_draining;
  const auto kind = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  std::optional<std::string> config_listen_address;
  if (const auto& gitlab_config = inputs.gitlab_runner) {
    if (!gitlab_config->system_id_problem.empty())
      warden_logger()->warn("gitlab-runner's system id: {}", gitlab_config->system_id_problem);
    config_listen_address = gitlab_config->listen_address;
    planned->gitlab_shutdown_timeout_ = gitlab_config->shutdown_timeout;
  }
  const bool gitlab = kind == runner_kind_name::gitlab || inputs.gitlab_runner.has_value();
  if (planned->metrics_url_.empty() && gitlab)
    planned->metrics_url_ = gitlab_metrics_url(config, inputs.environment, config_listen_address);
  if (const auto& targets = inputs.unregistration.targets; !targets.empty()) {
    planned->unregister_url_ = std::visit(
        [](const auto& target) -> std::string {
          if constexpr (std::is_same_v<std::decay_t<decltype(target)>, github_runner>)
            return target.api_url;
          else
            return target.url;
        },
        targets.front());
    planned->unregistration_plan_ = std::make_unique<unregister_plan>(inputs.unregistration);
  }
  if (planned->metrics_url_.empty())
    warden_logger()->info("no runner metrics configured: the runner's jobs stay unknown");
  return {std::move(planned), {}};
}

}  // namespace runwarden
