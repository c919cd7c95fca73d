// See run_command.hpp. Threads: CAF's sharing scheduler (it sleeps when idle, unlike the
// default work-stealing one; see shared notes §10) runs the actors on one worker, since no
// actor blocks and a second only adds wake-ups (bench/README.md), one io thread owns the
// child process and the signals, gRPC's own threads serve the control API, and the calling
// thread only waits for the exit. The control endpoint is checked before the runner starts;
// the server itself starts once the warden exists and stops after it reached gone.
#include "src/app/run_command.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <random>

#include "actors/lifecycle_watcher/cloud_watcher.hpp"
#include "src/app/cloud_detection.hpp"
#include "actors/notifier/webhook_notifier.hpp"
#include "actors/process_port/process_port_actor.hpp"
#include "actors/warden/warden_actor.hpp"
#include "src/app/autoscaling_link.hpp"
#include "src/app/run_journal.hpp"
#include "src/app/runner_awareness.hpp"
#include "src/app/scaling_plan.hpp"
#include "src/app/service_manager_link.hpp"
#include "runwarden_version.hpp"
#include "src/control/control_server.hpp"
#include "src/control/http_endpoints.hpp"
#include "src/logging/logging.hpp"
#include "src/ports/os/io_thread.hpp"
#include "src/ports/os/signal_watch.hpp"
#include "src/runner/gitlab_runner_config.hpp"
#include "src/runner/signal_names.hpp"
#include "src/telemetry/metrics_registry.hpp"
#include "src/util/duration_text.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace {

void log_effect(const drain_effect& effect) {
  auto logger = warden_logger();
  if (const auto* said = std::get_if<report>(&effect)) {
    switch (said->level) {
      case report_level::debug: logger->debug("{}", said->text); break;
      case report_level::info: logger->info("{}", said->text); break;
      case report_level::warning: logger->warn("{}", said->text); break;
      case report_level::error: logger->error("{}", said->text); break;
    }
  } else if (const auto* change = std::get_if<change_status>(&effect)) {
    logger->info("status {} -> {}", to_string(change->from), to_string(change->to));
  } else if (const auto* signal = std::get_if<signal_runner>(&effect)) {
    logger->debug("sending {} to process group {}", signal_name(signal->signal_number),
                  signal->pid);
  }
}

// How long open control calls (Watch streams taking their final `gone`) may take at exit.
constexpr std::chrono::seconds control_stop_grace{2};
constexpr std::chrono::seconds notifier_flush_wait_max{30};
// How often the main thread, otherwise idle, looks for journal entries a disk left held.
constexpr std::chrono::seconds journal_retry_interval{1};

// Entries a refusing disk left held are written once it has room again, even when the drain
// makes no new ones for hours; at the warden's clock, which the entries carry.
void write_held_journal(caf::actor_system& system, run_journal& journal,
                        metrics_registry& metrics) {
  const auto now =
      std::chrono::duration_cast<instant>(system.clock().now().time_since_epoch());
  if (auto stopped = journal.write_held(now))
    warden_logger()->error("journal: {}; the drain goes on without being recorded", *stopped);
  metrics.observe_journal(journal.health());
}

// Starts the control server for a prepared endpoint. When it cannot listen, the runner,
// which is already up, is stopped at once and runwarden ends with the server's exit code.
std::optional<int> start_control(std::optional<control_endpoint> endpoint,
                                 caf::actor_system& system, const caf::actor& warden,
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
    logger->info("the runner is gone; staying up (control.linger_after_gone = \"forever\") "
                 "until SIGTERM, SIGINT or SIGQUIT");
  else
    logger->info("the runner is gone; staying up for {} (control.linger_after_gone) or until "
                 "SIGTERM, SIGINT or SIGQUIT", format_duration(policy.duration));
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
    waiter->receive(on_signal, on_down,
                    caf::after(std::chrono::duration_cast<std::chrono::milliseconds>(left) +
                               std::chrono::milliseconds{1}) >> [] {});
  }
}

// Orphans re-parent to the nearest subreaper; as PID 1 runwarden is the init already.
void become_subreaper() {
  if (::getpid() == 1) return;
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    warden_logger()->warn("cannot become a child subreaper; orphans go to init");
}

// The runner as webhook templates name it: the name its CI server knows, when configured.
runner_identity runner_identity_of(const settings& config) {
  const auto kind_name = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  const auto& unregister = config.unregister;
  std::string name = unregister.kind == unregister_kind::github ? unregister.github.runner_name
                                                                 : unregister.gitlab.name;
  return {std::move(name), std::string{kind_of(kind_name).text}};
}

}  // namespace

drain_config make_drain_config(const settings& config, std::uint64_t random_seed,
                               std::optional<std::chrono::seconds> gitlab_shutdown_timeout) {
  const auto kind_name = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  const auto& kind = kind_of(kind_name);
  // gitlab-runner, after SIGTERM, aborts its jobs and waits up to its shutdown_timeout for
  // their clean-up (commands/multi.go handleForcefulShutdown): SIGKILL only after that.
  duration kill_timeout = generic_kill_timeout;
  if (kind_name == runner_kind_name::gitlab)
    kill_timeout = gitlab_shutdown_timeout.value_or(gitlab_default_shutdown_timeout) +
                   gitlab_kill_margin;
  if (config.drain.kill_timeout) kill_timeout = *config.drain.kill_timeout;
  drain_config result{
      .graceful_signal = kind.graceful_signal,
      .forceful_signal = kind.forceful_signal,
      .restart = config.restart,
      .drain_timeout = std::nullopt,
      .kill_timeout = kill_timeout,
      .random_seed = random_seed,
      .runner_start_grace = config.drain.start_grace,
      .unregister_alongside_below = config.drain.unregister_alongside_below,
  };
  if (kind.signals_configurable) {
    result.graceful_signal = config.runner.graceful_signal.value_or(result.graceful_signal);
    result.forceful_signal = config.runner.forceful_signal.value_or(result.forceful_signal);
  }
  if (config.drain.timeout) result.drain_timeout = *config.drain.timeout;
  // GitHub's runner has no signal that finishes its job: it is unregistered first, which
  // GitHub only allows once it is idle, and only then stopped.
  result.unregister = config.unregister.kind != unregister_kind::none;
  result.unregister_before_stop = config.unregister.kind == unregister_kind::github;
  if (result.unregister && config.unregister.alert_after)
    result.unregistration_alert_after = *config.unregister.alert_after;
  // The lifecycle hooks actor (autoscaling_link) looks for the hook of a cloud drain; the
  // Azure watcher approves the event it drained for. Either is waited for when it is away.
  result.await_lifecycle_lookup =
      (config.cloud.provider == cloud_provider::aws && config.aws.complete_lifecycle_hooks) ||
      config.cloud.provider == cloud_provider::azure;
  return result;
}

// cloud.provider "auto" becomes the cloud found, within a second, before the runner starts;
// everything after sees a real provider, and the log says what each probe saw.
settings with_cloud_found(settings config, const environment_map& environment) {
  if (config.cloud.provider != cloud_provider::detect) return config;
  const auto detection = detect_cloud(config, environment);
  config.cloud.provider = detection.found;
  warden_logger()->info("cloud.provider \"auto\": {} ({})",
                        detection.found == cloud_provider::none ? "no cloud found"
                                                                : "found " + name_of(detection),
                        detection.account);
  return config;
}

int run_warden(const settings& requested) {
  const auto environment = process_environment();
  const settings config = with_cloud_found(requested, environment);
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
  auto awareness = runner_awareness::plan(config, environment);
  if (!awareness.awareness) {
    warden_logger()->error("{}", awareness.error);
    return exit_config;
  }
  // [scaling]: the capacity is resolved now, so a scaler that could never decide stops
  // runwarden before the runner starts.
  const auto scaling = plan_scaling(config);
  if (!scaling.error.empty()) {
    warden_logger()->error("{}", scaling.error);
    return exit_config;
  }
  // Checked before the runner starts, so that a bad endpoint stops nothing midway.
  if (const auto problem = cloud_watcher_problem(config, environment); !problem.empty()) {
    warden_logger()->error("{}", problem);
    return exit_config;
  }
  // The Auto Scaling client, the lifecycle hooks and the scaler: credentials and endpoints
  // are checked now, the actors start once the warden exists.
  auto autoscaling = autoscaling_link::plan(config, environment, scaling.policy);
  if (!autoscaling.error.empty()) {
    warden_logger()->error("{}", autoscaling.error);
    return exit_config;
  }
  std::random_device entropy;
  auto journal = run_journal::open(
      config,
      make_drain_config(config, entropy(), awareness.awareness->gitlab_shutdown_timeout()),
      environment);
  if (!journal.journal) {
    warden_logger()->error("{}", journal.error);
    return journal.exit_code;
  }
  become_subreaper();
  caf::actor_system_config actor_config;
  actor_config.set("scheduler.policy", caf::atom("sharing"));
  actor_config.set("scheduler.max-threads", 1);
  caf::actor_system system{actor_config};
  auto notifier = spawn_notifier(system, config.webhook, entropy(),
                                 [metrics](notification_kind kind, bool delivered, unsigned) {
                                   metrics->count_webhook_delivery(kind, delivered);
                                 },
                                 runner_identity_of(config));
  if (!notifier.notifier) {
    warden_logger()->error("webhook: {}", notifier.error);
    return exit_config;
  }

  io_thread io;
  auto host = std::make_shared<child_process_host>(
      io.context(), runner_command{config.runner.command, config.runner.output});
  auto signals = std::make_shared<signal_watch>(io.context());
  host->start();

  caf::scoped_actor waiter{system};
  auto port = system.spawn(process_port, std::weak_ptr<child_process_host>{host});
  awareness.awareness->start_unregistration(
      system, entropy(),
      [metrics](outcome_kind outcome) { metrics->count_unregistration_attempt(outcome); });
  // The warden learns of the notifier, and of every restart of it, from its supervisor.
  auto warden = system.spawn(
      warden_actor,
      warden_wiring{.config = journal.journal->config(),
                    .process_port = port,
                    .exit_listener = caf::actor_cast<caf::actor>(waiter),
                    .notifier = caf::actor{},
                    .unregistrar = awareness.awareness->unregistration(),
                    .observer = [metrics](const drain_effect& effect,
                                          const warden_snapshot& snapshot) {
                      log_effect(effect);
                      metrics->observe(effect, snapshot);
                    },
                    .snapshot_observer =
                        [metrics](const warden_snapshot& snapshot) {
                          metrics->observe_snapshot(snapshot);
                        },
                    .journal = [&journal, metrics](instant at, const drain_event& event,
                                                   const std::vector<drain_effect>& effects) {
                      auto stopped = journal.journal->append(at, event, effects);
                      metrics->observe_journal(journal.journal->health());
                      return stopped;
                    },
                    .recovered = journal.journal->recovered()});
  awareness.awareness->start_metrics(system, warden);
  auto lifecycle = spawn_cloud_watcher(
      system, config, environment, warden, entropy(),
      [metrics] { metrics->mark_metadata_answered(std::chrono::system_clock::now()); });
  if (!lifecycle.error.empty()) warden_logger()->error("cloud watcher: {}", lifecycle.error);
  // Every worker runs under a supervisor of its own: the warden hears of each restart,
  // and a supervisor that gives up ends runwarden the graceful way (below).
  if (autoscaling.link) autoscaling.link->start(system, warden, awareness.awareness->reads_metrics(), entropy(),
                              metrics);
  auto supervisors = awareness.awareness->supervisors();
  if (autoscaling.link)
    for (const auto& supervisor : autoscaling.link->supervisors()) supervisors.push_back(supervisor);
  supervisors.push_back(notifier.notifier->supervisor());
  if (lifecycle.watcher) supervisors.push_back(lifecycle.watcher->supervisor());
  for (const auto& supervisor : supervisors) {
    caf::anon_send(supervisor, caf::subscribe_atom::value, warden);
    waiter->monitor(supervisor);
  }
  signals->start(warden);
  std::unique_ptr<control_server> control;
  const auto control_failure = start_control(std::move(endpoint.endpoint), system, warden,
                                             control);
  auto service_manager = service_manager_link::start(
      system, warden, awareness.awareness->unregister_url(), !control_failure);

  int exit_code = 1;
  bool waiting = true;
  bool worker_failed = false;
  waiter->receive_while(waiting)(
      [&](const warden_exited& exited) {
        exit_code = exited.exit_code;
        waiting = false;
        journal.journal->retire();
      },
      [&](const caf::down_msg& down) {
        // A worker kept crashing and its supervisor gave up: drain the runner without
        // killing a job, then fail so that the service manager starts runwarden afresh.
        if (worker_failed) return;  // one drain is enough
        worker_failed = true;
        warden_logger()->error("{}; draining the runner, then exiting {}",
                               system.render(down.reason), exit_software);
        caf::anon_send(warden, shutdown_requested{.source = trigger_source::control_api,
                                                  .reason = "a supervised worker failed"});
      },
      caf::after(journal_retry_interval) >> [&] {
        write_held_journal(system, *journal.journal, *metrics);
      });
  // The gone webhook and callbacks get a bounded chance before the process ends.
  if (!notifier.notifier->flush(system, notifier_flush_wait_max))
    warden_logger()->warn("webhook deliveries still pending after {}s; giving them up",
                          notifier_flush_wait_max.count());
  // A control API that never started has nobody to answer: no reason to stay.
  if (!control_failure) linger(waiter, config.control.linger_after_gone);
  if (control) control->stop(control_stop_grace);
  if (service_manager) service_manager->stop();
  notifier.notifier->stop();
  awareness.awareness->stop();
  if (lifecycle.watcher) lifecycle.watcher->stop();
  if (autoscaling.link) autoscaling.link->stop();
  if (http.endpoints) http.endpoints->stop();
  signals->stop();
  host->stop();
  io.stop();
  caf::anon_send_exit(warden, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
  return control_failure.value_or(worker_failed ? exit_software : exit_code);
}

}  // namespace runwarden
