// A drain that reached gone with an instance the group retains (Terminating:Retained) still
// has the instance to end: the instance end terminates it after gone, so a runwarden stopped
// in between must recover that journal, not begin afresh (which would start a runner on an
// instance on its way out and leave it billed). The journal is opened as `runwarden run`
// opens it, written, left unretired as a crash leaves it, and opened again.
#include <catch2/catch.hpp>

#include "src/assembly/run_journal.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

// Writes a drain to gone through the lifecycle hook; its completion says `retained`.
void write_gone_drain(const std::filesystem::path& directory, bool retained) {
  settings config;
  config.journal.state_directory = directory.string();
  auto opened = run_journal::open(config, journal_test_config(), {});
  REQUIRE(opened.journal);
  drain_machine machine{journal_test_config()};
  const lifecycle_action action{
      .hook_name = "drain", .heartbeat_timeout = 300s, .expires_at = instant{3600s}};
  const std::vector<std::pair<instant, drain_event>> events{
      {instant{0s}, warden_started{}},
      {instant{0s}, runner_spawned{77}},
      {instant{1s}, shutdown_requested{.source = trigger_source::cloud_lifecycle}},
      {instant{1s}, lifecycle_action_pending{action}},
      {instant{2s}, runner_exited{77, exit_status{}}},
      {instant{3s}, lifecycle_action_completed{true, "no active lifecycle action", retained}}};
  for (const auto& [at, event] : events)
    REQUIRE_FALSE(opened.journal->append(at, event, machine.step(event, at)));
  REQUIRE(machine.state().status == warden_status::gone);
}

std::size_t recovered_entries(const std::filesystem::path& directory) {
  settings config;
  config.journal.state_directory = directory.string();
  auto opened = run_journal::open(config, journal_test_config(), {});
  REQUIRE(opened.journal);
  return opened.journal->recovered().size();
}

}  // namespace

TEST_CASE("a drain gone with a retained instance is recovered, to end the instance",
          "[journal][retention]") {
  journal_temp_dir dir;
  write_gone_drain(dir.path(), true);
  CHECK(recovered_entries(dir.path()) == 6);
}

TEST_CASE("a drain gone without retention is finished and begins afresh", "[journal][retention]") {
  journal_temp_dir dir;
  write_gone_drain(dir.path(), false);
  CHECK(recovered_entries(dir.path()) == 0);
}
