// See local_instance.hpp.
#include "src/assembly/local_instance.hpp"

#include <random>
#include <utility>

#include "actors/exit_wait/exit_wait.hpp"
#include "actors/process_port/process_port_actor.hpp"
#include "src/assembly/instance_planning.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/machine_uptime.hpp"
#include "src/runner/signal_names.hpp"
#include "src/util/assert.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

void log_effect(const drain_effect& effect) {
  auto logger = warden_logger();
  if (const auto* said = std::get_if<report>(&effect)) {
    switch (said->level) {
      case report_level::debug:
        logger->debug("{}", said->text);
        break;
      case report_level::info:
        logger->info("{}", said->text);
        break;
      case report_level::warning:
        logger->warn("{}", said->text);
        break;
      case report_level::error:
        logger->error("{}", said->text);
        break;
    }
  } else if (const auto* change = std::get_if<change_status>(&effect)) {
    logger->info("status {} -> {}", to_string(change->from), to_string(change->to));
  } else if (const auto* signal = std::get_if<signal_runner>(&effect)) {
    logger->debug("sending {} to process group {}", signal_name(signal->signal_number),
                  signal->pid);
  }
}

}  // namespace

local_instance::prepare_result local_instance::prepare(const settings& config,
                                                       std::shared_ptr<metrics_registry> metrics) {
  auto gathered = gather_instance_inputs(config, process_environment());
  if (!gathered.inputs) return {nullptr, std::move(gathered.error), exit_config};
  std::random_device entropy;
  auto planned = plan_instance(
      *gathered.inputs, [&entropy] { return entropy(); }, metrics);
  if (!planned.plan) return {nullptr, std::move(planned.error), planned.exit_code};
  auto opened = run_journal::open(config, planned.plan->drain, gathered.inputs->environment);
  if (!opened.journal) return {nullptr, std::move(opened.error), opened.exit_code};
  planned.plan->drain = opened.journal->config();  // a recovered drain keeps its own
  return {std::unique_ptr<local_instance>{
              new local_instance{config, std::move(*planned.plan), std::move(*opened.journal),
                                 std::move(planned.unregister_url), std::move(metrics)}},
          {},
          0};
}

local_instance::local_instance(settings config, instance_plan plan, run_journal journal,
                               std::string unregister_url,
                               std::shared_ptr<metrics_registry> metrics)
    : config_(std::move(config)),
      plan_(std::move(plan)),
      journal_(std::move(journal)),
      unregister_url_(std::move(unregister_url)),
      metrics_(std::move(metrics)) {}

void local_instance::start(caf::actor_system& system, warden_exit_listener_actor exit_listener,
                           effect_observer observer, runner_hosting hosting) {
  RUNWARDEN_ASSERT(plan_ && !actors_);
  system_ = &system;
  if (auto* keeper = std::get_if<std::shared_ptr<keeper_link>>(&hosting))
    host_ = *keeper;
  else
    host_ = std::make_shared<child_process_host>(
        io_.context(), runner_command{config_.runner.command, config_.runner.output},
        std::get<child_reaping>(hosting));
  host_->start();
  http_ports_.emplace(system, io_.context());
  process_port_ = system.spawn(process_port, std::weak_ptr<runner_host>{host_});
  actors_ = instance::start(
      system, std::move(*plan_),
      instance_ports{.process = process_port_,
                     .http = [this] { return http_ports_->add(); },
                     .exit_listener = std::move(exit_listener),
                     .observer =
                         [observer = std::move(observer)](const drain_effect& effect,
                                                          const warden_snapshot& snapshot) {
                           log_effect(effect);
                           if (observer) observer(effect, snapshot);
                         },
                     .snapshot_observer =
                         [metrics = metrics_](const warden_snapshot& snapshot) {
                           metrics->observe_snapshot(snapshot);
                         },
                     .journal =
                         [this](instant at, const drain_event& event,
                                const std::vector<drain_effect>& effects) {
                           auto stopped = journal_->append(at, event, effects);
                           metrics_->observe_journal(journal_->health());
                           return stopped;
                         },
                     .recovered = journal_->recovered(),
                     .machine_uptime = machine_uptime});
  plan_.reset();
}

void local_instance::stop() {
  if (!system_) return;
  // The warden writes the journal through this instance, a supervisor asks it for HTTP
  // ports, the process port reaches the child process host: each ends before they go.
  exit_wait ended{*system_};
  for (const auto& supervisor : actors_->supervisors()) ended.watch(supervisor);
  ended.watch(actors_->warden());
  ended.watch(process_port_);
  actors_->stop();
  caf::anon_send_exit(process_port_, caf::exit_reason::user_shutdown);
  ended.wait();
  http_ports_->stop();
  host_->stop();
  host_.reset();
  io_.stop();
  system_ = nullptr;
}

}  // namespace runwarden
