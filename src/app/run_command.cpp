// See run_command.hpp. Threads: CAF's sharing scheduler (it sleeps when idle, unlike the
// default work-stealing one; see shared notes §10) runs the actors, one io thread owns the
// child process and the signals, and the calling thread only waits for the exit.
#include "src/app/run_command.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <random>

#include "actors/process_port/process_port_actor.hpp"
#include "actors/warden/warden_actor.hpp"
#include "src/app/logging.hpp"
#include "src/ports/os/io_thread.hpp"
#include "src/ports/os/signal_watch.hpp"
#include "src/runner/signal_names.hpp"

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

// Orphans re-parent to the nearest subreaper; as PID 1 runwarden is the init already.
void become_subreaper() {
  if (::getpid() == 1) return;
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    warden_logger()->warn("cannot become a child subreaper; orphans go to init");
}

}  // namespace

drain_config make_drain_config(const settings& config, std::uint64_t random_seed) {
  const auto kind_name = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  const auto& kind = kind_of(kind_name);
  drain_config result{
      .graceful_signal = kind.graceful_signal,
      .forceful_signal = kind.forceful_signal,
      .restart = config.restart,
      .drain_timeout = std::nullopt,
      .kill_timeout = config.drain.kill_timeout,
      .random_seed = random_seed,
  };
  if (kind.signals_configurable) {
    result.graceful_signal = config.runner.graceful_signal.value_or(result.graceful_signal);
    result.forceful_signal = config.runner.forceful_signal.value_or(result.forceful_signal);
  }
  if (config.drain.timeout) result.drain_timeout = *config.drain.timeout;
  return result;
}

int run_warden(const settings& config) {
  become_subreaper();
  caf::actor_system_config actor_config;
  actor_config.set("scheduler.policy", caf::atom("sharing"));
  actor_config.set("scheduler.max-threads", 2);
  caf::actor_system system{actor_config};

  io_thread io;
  auto host = std::make_shared<child_process_host>(
      io.context(), runner_command{config.runner.command, config.runner.output});
  auto signals = std::make_shared<signal_watch>(io.context());
  host->start();

  caf::scoped_actor waiter{system};
  auto port = system.spawn(process_port, host);
  auto warden = system.spawn(
      warden_actor, warden_wiring{make_drain_config(config, std::random_device{}()), port,
                                  caf::actor_cast<caf::actor>(waiter),
                                  caf::actor{},
                                  [](const drain_effect& e, const warden_snapshot&) {
                                    log_effect(e);
                                  }});
  signals->start(warden);

  int exit_code = 1;
  waiter->receive([&](const warden_exited& exited) { exit_code = exited.exit_code; });
  signals->stop();
  host->stop();
  io.stop();
  caf::anon_send_exit(warden, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
  return exit_code;
}

}  // namespace runwarden
