// A journal is trusted no further than it can be proved ("the state directory is
// trusted blindly"): one that names an unrelated process as the runner, as a forged journal
// or a pid reused since (after a reboot too) does, must not make runwarden adopt or signal
// it. The journal here is written as runwarden writes it (run_journal), naming a `sleep` the
// test started, in a drain whose graceful signal is not yet recorded as delivered, so a
// recovered runwarden would send it at once. The proved case is the control: the same
// journal with the sleep's real identity is adopted and the signal reaches it.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <variant>

#include "caf/all.hpp"
#include "runwarden/instance.hpp"
#include "src/assembly/drain_config_from_settings.hpp"
#include "src/assembly/run_journal.hpp"
#include "src/config/config_file.hpp"
#include "src/ports/os/process_identity_probe.hpp"
#include "src/util/process_environment.hpp"
#include "tests/embedding/host_side.hpp"

namespace {

using namespace runwarden::embedded;
using namespace runwarden::embedded::testing;
using runwarden::process_identity;

// Never restarted: a runner from before that is refused ends the instance.
std::string forged_toml(const scratch_directory& state) {
  return "[runner]\nkind = \"gitlab\"\ncommand = [\"" DEMO_RUNNER_BINARY
         "\"]\n"
         "[restart]\npolicy = \"temporary\"\n[journal]\nstate_directory = \"" +
         state.path.string() + "\"\n";
}

pid_t start_sleep() {
  const pid_t child = ::fork();
  if (child == 0) {
    ::execlp("sleep", "sleep", "300", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  REQUIRE(child > 0);
  return child;
}

// The journal an earlier runwarden would have left: the runner `pid` spawned two minutes
// ago with `identity`, a drain asked a minute ago, its graceful signal not yet delivered.
void write_journal(const scratch_directory& state, pid_t pid, process_identity identity) {
  auto read = runwarden::parse_config_text(forged_toml(state), "forged");
  REQUIRE(read.config);
  const auto drain = runwarden::make_drain_config(*read.config, 1);
  auto opened = runwarden::run_journal::open(*read.config, drain, runwarden::process_environment());
  REQUIRE(opened.journal);
  runwarden::drain_machine machine{drain};
  const auto now = std::chrono::duration_cast<runwarden::instant>(
      std::chrono::steady_clock::now().time_since_epoch());
  const auto record = [&](runwarden::instant at, const runwarden::drain_event& event) {
    auto effects = machine.step(event, at);
    REQUIRE_FALSE(opened.journal->append(at, event, effects).has_value());
    return effects;
  };
  record(now - std::chrono::minutes{2}, runwarden::warden_started{});
  // The runner's start grace, armed at its spawn, passed long ago.
  const auto spawned_at = now - std::chrono::minutes{2};
  for (const auto& effect : record(spawned_at, runwarden::runner_spawned{pid, std::move(identity)}))
    if (const auto* timer = std::get_if<runwarden::arm_timer>(&effect))
      if (timer->kind == runwarden::timer_kind::runner_start_grace)
        record(timer->at, runwarden::timer_fired{timer->kind, timer->id});
  record(
      now - std::chrono::minutes{1},
      runwarden::shutdown_requested{.source = runwarden::trigger_source::host, .reason = "forged"});
  REQUIRE(machine.undelivered_signal().has_value());
}

// The instance on the journal, followed to gone; the status at gone.
status recover_to_gone(const scratch_directory& state, const std::shared_ptr<captured_log>& log) {
  auto loaded = config::from_toml(forged_toml(state));
  REQUIRE(loaded.config);
  loaded.config->set_log_sink(captured_log::sink_into(log));
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  caf::scoped_actor host{system};
  auto started = instance::start(system, *loaded.config);
  REQUIRE(started.error.empty());
  started.instance->subscribe(caf::actor_cast<caf::actor>(host));
  const auto end = statuses_until(host, gone).back();
  started.instance->stop();
  return end;
}

}  // namespace

TEST_CASE("a journal naming an unrelated process as the runner never gets it signalled",
          "[embedding][process]") {
  scratch_directory state;
  const pid_t sleeper = start_sleep();
  auto real = runwarden::read_process_identity(sleeper);
  REQUIRE(real);
  SECTION("with a start time that is not the process's") {
    write_journal(state, sleeper, {real->start_time_ticks + 1, real->boot_id});
  }
  SECTION("from another boot") {
    write_journal(state, sleeper, {real->start_time_ticks, "forged-boot-id"});
  }
  SECTION("with no identity at all, as a journal from before") {
    write_journal(state, sleeper, {});
  }
  auto log = std::make_shared<captured_log>();
  const auto end = recover_to_gone(state, log);
  CHECK(end.exit_unknown);
  CHECK(log->any("the journal names pid " + std::to_string(sleeper) + " as the runner, but"));
  CHECK(log->any("not signalling pid " + std::to_string(sleeper)));

  int wait_status = 0;
  CHECK(::waitpid(sleeper, &wait_status, WNOHANG) == 0);  // still sleeping, never signalled
  ::kill(sleeper, SIGKILL);
  ::waitpid(sleeper, &wait_status, 0);
}

TEST_CASE("a journal's runner proved by its start time and boot is adopted and signalled",
          "[embedding][process]") {
  scratch_directory state;
  const pid_t sleeper = start_sleep();
  auto real = runwarden::read_process_identity(sleeper);
  REQUIRE(real);
  write_journal(state, sleeper, *real);
  auto log = std::make_shared<captured_log>();
  const auto end = recover_to_gone(state, log);
  CHECK(end.exit_unknown);  // not runwarden's child here: its end is seen, not its status
  CHECK(log->any("watching the runner from before, pid " + std::to_string(sleeper)));

  int wait_status = 0;
  REQUIRE(::waitpid(sleeper, &wait_status, 0) == sleeper);
  CHECK(WIFSIGNALED(wait_status));  // the drain's graceful signal (SIGQUIT) reached it
  CHECK(WTERMSIG(wait_status) == SIGQUIT);
}
