// See run_command.hpp. Threads: CAF's sharing scheduler (it sleeps when idle, unlike the
// default work-stealing one) runs the actors on one worker, since no
// actor blocks and a second only adds wake-ups (bench/README.md), one io thread owns the
// child process and the signals, gRPC's own threads serve the control API, and the calling
// thread only waits for the exit. The control endpoint is checked before the runner starts;
// the server itself starts once the warden exists and stops after it reached gone.
#include "src/app/run_command.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>

#include "actors/notifier/webhook_notifier.hpp"
#include "messages/child_ids.hpp"
#include "runwarden_version.hpp"
#include "src/app/cloud_detection.hpp"
#include "src/app/service_manager_link.hpp"
#include "src/app/shutdown_inhibitor_link.hpp"
#include "src/assembly/local_instance.hpp"
#include "src/control/control_server.hpp"
#include "src/control/http_endpoints.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/keeper_link.hpp"
#include "src/ports/os/signal_watch.hpp"
#include "src/ports/os/systemd_notify.hpp"
#include "src/runner/signal_names.hpp"
#include "src/telemetry/metrics_registry.hpp"
#include "src/util/duration_text.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

// How long open control calls (Watch streams taking their final `gone`) may take at exit.
constexpr std::chrono::seconds control_stop_grace{2};
constexpr std::chrono::seconds notifier_flush_wait_max{30};
// How often the main thread, otherwise idle, writes journal entries a disk left held: every
// second while some are held (the journal's own backoff spaces the attempts), and while none
// are known to be, only as often as the journal's longest backoff, so that an idle runwarden
// does not wake each second for nothing. Entries held meanwhile are also tried
// on every new entry the warden makes.
constexpr std::chrono::seconds journal_retry_interval{1};
constexpr std::chrono::seconds journal_check_interval{30};

// Entries a refusing disk left held are written once it has room again, even when the drain
// makes no new ones for hours; at the warden's clock, which the entries carry.
void write_held_journal(caf::actor_system& system, run_journal& journal,
                        metrics_registry& metrics) {
  const auto now = std::chrono::duration_cast<instant>(system.clock().now().time_since_epoch());
  if (auto stopped = journal.write_held(now))
    warden_logger()->error("journal: {}; the drain goes on without being recorded", *stopped);
  metrics.observe_journal(journal.health());
}

// Starts the control server for a prepared endpoint. When it cannot listen, the runner,
// which is already up, is stopped at once and runwarden ends with the server's exit code.
std::optional<int> start_control(std::optional<control_endpoint> endpoint,
                                 caf::actor_system& system, const warden_actor& warden,
                                 std::unique_ptr<control_server>& server) {
  if (!endpoint) return std::nullopt;
  auto started = control_server::start(std::move(*endpoint), system, warden);
  if (started.server) {
    server = std::move(started.server);
    return std::nullopt;
  }
  warden_logger()->error("{}", started.error);
  caf::anon_send(warden, forceful_shutdown_requested{trigger_source::control_api,
                                                     "the control API could not start"});
  return started.exit_code;
}

// Once gone, runwarden may stay up so that deployment tooling polling the control API (GRIT's
// `deployer wait-terminated`, gitlab-runner's own client) reads `stopped` instead of losing
// the connection; the tooling, not runwarden, decides when the machine goes. The warden hands
// runwarden's own signals, once gone, to `waiter`: any stop signal ends the linger.
void linger(caf::scoped_actor& waiter, const linger_policy& policy) {
  if (!policy.forever && policy.duration <= std::chrono::milliseconds::zero()) return;
  const auto logger = warden_logger();
  if (policy.forever)
    logger->info(
        "the runner is gone; staying up (control.linger_after_gone = \"forever\") "
        "until SIGTERM, SIGINT or SIGQUIT");
  else
    logger->info(
        "the runner is gone; staying up for {} (control.linger_after_gone) or until "
        "SIGTERM, SIGINT or SIGQUIT",
        format_duration(policy.duration));
  const auto until = std::chrono::steady_clock::now() + policy.duration;
  bool lingering = true;
  const auto on_signal = [&](const os_signal_received& signal) {
    if (signal.signal_number == SIGHUP) return;  // a reload: nothing left to reload
    logger->info("{} received while lingering; exiting", signal_name(signal.signal_number));
    lingering = false;
  };
  const auto on_down = [](const caf::down_msg&) {};  // workers end as they like now
  while (lingering) {
    if (policy.forever) {
      waiter->receive(on_signal, on_down);
      continue;
    }
    const auto left = until - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) break;
    waiter->receive(
        on_signal, on_down,
        caf::after(std::chrono::duration_cast<std::chrono::milliseconds>(left) +
                   std::chrono::milliseconds{1}) >>
            [] {});
  }
}

// Orphans re-parent to the nearest subreaper; as PID 1 runwarden is the init already.
void become_subreaper() {
  if (::getpid() == 1) return;
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    warden_logger()->warn("cannot become a child subreaper; orphans go to init");
}

// Waits for the warden's exit code: exit_software when a worker kept crashing, so that its
// supervisor gave up and the instance drained (give_up_escalation.hpp), and the service
// manager starts runwarden afresh. Meanwhile it writes what the journal held while its disk
// refused.
warden_exited wait_for_gone(caf::scoped_actor& waiter, caf::actor_system& system,
                            run_journal& journal, metrics_registry& metrics, keeper_link* keeper) {
  warden_exited gone{.exit_code = 1, .reason = {}, .trigger = std::nullopt};
  bool waiting = true;
  const auto exited = [&](const warden_exited& exited) {
    gone = exited;
    waiting = false;
    if (keeper != nullptr) keeper->tell_gone(exited.exit_code);  // before the journal goes
    // A retired instance keeps its journal: a later start must not run a runner again.
    if (exited.trigger != trigger_source::retirement &&
        exited.trigger != trigger_source::replacement)
      journal.retire();
  };
  while (waiting) {
    const auto wait =
        journal.health().unrecorded_entries > 0 ? journal_retry_interval : journal_check_interval;
    waiter->receive(
        exited, caf::after(wait) >> [&] { write_held_journal(system, journal, metrics); });
  }
  return gone;
}

// A drain that a signal started (a service manager's stop, docker stop, GRIT's one SIGTERM)
// ends with runwarden's exit, as gitlab-runner's own wrapper exits once its runner is gone:
// lingering would keep the unit stopping until its stop timeout SIGKILLs it. Only a drain
// asked through the API lingers, for the tooling that polls it.
bool signal_started(const warden_exited& gone) {
  return gone.trigger == trigger_source::signal_terminate ||
         gone.trigger == trigger_source::signal_interrupt ||
         gone.trigger == trigger_source::signal_quit;
}

}  // namespace

// cloud.provider "auto" becomes the cloud found, within a second, before the runner starts;
// everything after sees a real provider, and the log says what each probe saw.
settings with_cloud_found(settings config, const environment_map& environment) {
  if (config.cloud.provider != cloud_provider::detect) return config;
  const auto detection = detect_cloud(config, environment);
  config.cloud.provider = detection.found;
  warden_logger()->info(
      "cloud.provider \"auto\": {} ({})",
      detection.found == cloud_provider::none ? "no cloud found" : "found " + name_of(detection),
      detection.account);
  return config;
}

int run_warden(const settings& requested) {
  const settings config = with_cloud_found(requested, process_environment());
  auto endpoint = prepare_control_endpoint(config.control, config.webhook.allow_link_local);
  if (!endpoint.error.empty()) {
    warden_logger()->error("{}", endpoint.error);
    return endpoint.exit_code;
  }
  // Both outlive the actor system: the warden's observer and the notifier's feed them.
  auto metrics = std::make_shared<metrics_registry>(version_text, std::chrono::system_clock::now());
  auto http = http_endpoints::start(config.control, *metrics);
  if (!http.error.empty()) {
    warden_logger()->error("{}", http.error);
    return exit_unavailable;
  }
  auto prepared = local_instance::prepare(config, metrics);
  if (!prepared.instance) {
    warden_logger()->error("{}", prepared.error);
    return prepared.exit_code;
  }
  auto& runwarden = *prepared.instance;
  // Caught from now on: a signal before the warden exists waits for it.
  auto signals = std::make_shared<signal_watch>(runwarden.io_context());
  // Under a keeper (src/keeper/keeper.hpp) the runner is the keeper's child; without one
  // (a warden started by hand with the keeper's variable unset) it is this process's.
  std::shared_ptr<keeper_link> keeper;
  if (const auto link = keeper_link::environment())
    keeper = std::make_shared<keeper_link>(
        runwarden.io_context(), *link, runner_command{config.runner.command, config.runner.output},
        config.log.format == log_format::json);
  else
    become_subreaper();
  caf::actor_system_config actor_config;
  actor_config.set("scheduler.policy", caf::atom("sharing"));
  actor_config.set("scheduler.max-threads", 1);
  caf::actor_system system{actor_config};
  caf::scoped_actor waiter{system};
  // A blocking actor has no typed interface: what it receives is what wait_for_gone and
  // linger match.
  runwarden.start(
      system, caf::actor_cast<warden_exit_listener_actor>(waiter),
      [metrics](const drain_effect& effect, const warden_snapshot& snapshot) {
        metrics->observe(effect, snapshot);
      },
      keeper ? runner_hosting{keeper}
             : runner_hosting{child_reaping::every_child});  // orphans are ours
  const auto& actors = runwarden.actors();
  signals->start(actors.warden());
  if (keeper) keeper->forward_signals_to(actors.warden());
  std::unique_ptr<control_server> control;
  const auto control_failure =
      start_control(std::move(endpoint.endpoint), system, actors.warden(), control);
  auto service_manager = service_manager_link::start(
      system, actors.warden(),
      keeper ? systemd_notify::through_keeper(keeper) : systemd_notify::from_environment(),
      runwarden.unregister_url(), !control_failure);
  auto inhibitor =
      shutdown_inhibitor_link::start(system, actors.warden(), config.run.inhibit_shutdown);
  const auto gone = wait_for_gone(waiter, system, runwarden.journal(), *metrics, keeper.get());
  // The gone webhook and callbacks get a bounded chance before the process ends.
  if (!flush_notifier(system, actors.supervisor_of(child_id::notifier), notifier_flush_wait_max))
    warden_logger()->warn("webhook deliveries still pending after {}s; giving them up",
                          notifier_flush_wait_max.count());
  // A control API that never started has nobody to answer: no reason to stay.
  if (!control_failure && !signal_started(gone)) linger(waiter, config.control.linger_after_gone);
  if (control) control->stop(control_stop_grace);
  if (service_manager) service_manager->stop();
  if (inhibitor) inhibitor->stop();
  if (http.endpoints) http.endpoints->stop();
  signals->stop();
  runwarden.stop();
  return control_failure.value_or(gone.exit_code);
}

}  // namespace runwarden
