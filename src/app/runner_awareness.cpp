// See runner_awareness.hpp.
#include "src/app/runner_awareness.hpp"

#include <type_traits>
#include <variant>

#include "actors/http_port/http_port_actor.hpp"
#include "actors/metrics_poller/metrics_poller_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "actors/unregistrar/unregistration_phase_actor.hpp"
#include "messages/warden_messages.hpp"
#include "src/logging/logging.hpp"
#include "src/runner/gitlab_runner_command.hpp"
#include "src/runner/gitlab_runner_config_loader.hpp"
#include "src/unregister/unregister_plan.hpp"

namespace runwarden {

struct runner_awareness::unregistration_plan {
  unregister_plan plan;
};

runner_awareness::runner_awareness() = default;
runner_awareness::~runner_awareness() { stop(); }

namespace {

// The first incarnation of a worker is asked for at start, before the warden exists.
constexpr std::chrono::seconds first_incarnation_wait{5};

std::vector<gitlab_runner> runners_of(const gitlab_runner_config& config) {
  std::vector<gitlab_runner> runners;
  for (const auto& entry : config.runners)
    runners.push_back(gitlab_runner{.name = entry.name,
                                    .url = entry.url,
                                    .token = std::string{entry.token.reveal()},
                                    .system_id = config.system_id.value_or("")});
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
    discovered = runners_of(*loaded.config);
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
    awareness->unregistration_plan_ = std::make_unique<unregistration_plan>(std::move(planned.plan));
  }
  if (awareness->metrics_url_.empty())
    warden_logger()->info("no runner metrics configured: the runner's jobs stay unknown");
  return {std::move(awareness), {}};
}

void runner_awareness::start_metrics(caf::actor_system& system, const caf::actor& warden) {
  if (!metrics_url_.empty()) {
    metrics_worker_ = std::make_shared<http_worker>();
    auto port = system.spawn(http_port, metrics_worker_);
    metrics_port_ = caf::actor_cast<caf::actor>(port);
    // A restarted poller just polls again: the warden keeps the load it last heard.
    metrics_poller_wiring wiring{.url = metrics_url_,
                                 .interval = metrics_interval_,
                                 .http_port = port,
                                 .listener = warden,
                                 .interval_draining = metrics_interval_draining_};
    poller_supervisor_ = spawn_worker_supervisor(
        system, {{std::string{metrics_poller_child_id}},
                 [wiring = std::move(wiring)](caf::local_actor* supervisor) {
                   return supervisor->spawn(metrics_poller_actor, wiring);
                 }});
    warden_logger()->info("scraping the runner's metrics at {} every {}s, every {}s while it "
                          "drains", metrics_url_, metrics_interval_.count() / 1000.0,
                          metrics_interval_draining_.count() / 1000.0);
  }
}

void runner_awareness::start_unregistration(caf::actor_system& system, std::uint64_t seed,
                                            std::function<void(outcome_kind)> observer) {
  if (unregistration_plan_) {
    const auto& plan = unregistration_plan_->plan;
    unregister_worker_ = std::make_shared<http_worker>();
    auto port = system.spawn(http_port, unregister_worker_);
    unregister_port_ = caf::actor_cast<caf::actor>(port);
    unregistrar_wiring wiring{.http_port = port,
                              .listener = {},
                              .targets = plan.targets,
                              .limits = plan.limits,
                              .timeout = plan.timeout,
                              .random_seed = seed,
                              .attempt_observer = std::move(observer)};
    unregistration_supervisor_ = spawn_worker_supervisor(
        system, {{std::string{unregistration_child_id}},
                 [wiring = std::move(wiring)](caf::local_actor* supervisor) {
                   return supervisor->spawn(unregistration_phase_actor, wiring);
                 }});
    unregistration_ = current_child(system, unregistration_supervisor_,
                                    std::string{unregistration_child_id},
                                    first_incarnation_wait);
  }
}

std::vector<caf::actor> runner_awareness::supervisors() const {
  std::vector<caf::actor> running;
  for (const auto* supervisor : {&unregistration_supervisor_, &poller_supervisor_})
    if (*supervisor) running.push_back(*supervisor);
  return running;
}

void runner_awareness::stop() {
  unregistration_ = caf::actor{};
  for (auto* actor :
       {&poller_supervisor_, &unregistration_supervisor_, &metrics_port_, &unregister_port_}) {
    if (*actor) caf::anon_send_exit(*actor, caf::exit_reason::user_shutdown);
    *actor = caf::actor{};
  }
  if (metrics_worker_) metrics_worker_->stop();
  if (unregister_worker_) unregister_worker_->stop();
}

}  // namespace runwarden
