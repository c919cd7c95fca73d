// A disk that refuses the journal's writes mid-run (full: a file size limit stands in for
// it), as `runwarden run` keeps the journal: every append still succeeds for the warden, so
// the drain goes on; the refused entries are held and written again, in order and after a
// backoff (on a later append or on the caller's timer), once the disk takes them, leaving a
// whole journal that replays to its effects.
// health() says all of it, as /metrics shows it.
#include <catch2/catch.hpp>

#include "src/assembly/run_journal.hpp"
#include "src/journal/journal_location.hpp"
#include "src/journal/journal_reader.hpp"
#include "src/journal/journal_replay.hpp"
#include "tests/unit/file_size_limit.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

struct timed_run {
  drain_machine machine{journal_test_config()};

  std::optional<std::string> at(run_journal& journal, std::chrono::milliseconds time,
                                const drain_event& event) {
    const instant now{time};
    return journal.append(now, event, machine.step(event, now));
  }
};

journal_health health_of(bool healthy, std::uint64_t failures, std::uint64_t unrecorded) {
  return {.healthy = healthy, .write_failures_total = failures, .unrecorded_entries = unrecorded};
}

}  // namespace

TEST_CASE("refused journal writes are held, retried with backoff, and caught up in order",
          "[journal][refusal]") {
  journal_temp_dir dir;
  settings config;
  config.journal.state_directory = dir.path().string();
  auto opened = run_journal::open(config, journal_test_config(), {});
  REQUIRE(opened.journal);
  auto& journal = *opened.journal;
  timed_run run;
  REQUIRE_FALSE(run.at(journal, 1000ms, warden_started{}));
  REQUIRE_FALSE(run.at(journal, 1000ms, runner_spawned{77}));
  CHECK(journal.health() == health_of(true, 0, 0));
  const auto file = journal_file(dir.path());
  {
    const file_size_limit full{static_cast<rlim_t>(std::filesystem::file_size(file) + 3)};
    CHECK_FALSE(run.at(journal, 2000ms, runner_load_observed{2u}));  // held: the drain goes on
    CHECK(journal.health() == health_of(false, 1, 1));
    CHECK_FALSE(run.at(journal, 2500ms, shutdown_requested{}));  // inside the 1 s backoff
    CHECK(journal.health() == health_of(false, 1, 2));
    CHECK_FALSE(run.at(journal, 3000ms, runner_load_observed{1u}));  // tried, refused again
    CHECK(journal.health() == health_of(false, 2, 3));
  }
  CHECK_FALSE(run.at(journal, 4000ms, runner_load_observed{0u}));  // inside the 2 s backoff
  CHECK(journal.health() == health_of(false, 2, 4));
  // No entry comes for a while (a long job): the caller's timer writes the held ones, once
  // their backoff is over.
  CHECK_FALSE(journal.write_held(instant{4500ms}));
  CHECK(journal.health() == health_of(false, 2, 4));
  CHECK_FALSE(journal.write_held(instant{5000ms}));
  CHECK(journal.health() == health_of(true, 2, 0));
  CHECK_FALSE(run.at(journal, 6000ms, runner_load_observed{0u}));
  CHECK(journal.health() == health_of(true, 2, 0));

  const auto read = read_journal(file);
  REQUIRE(read.contents);
  CHECK_FALSE(read.contents->damage);
  const auto& entries = read.contents->entries;
  REQUIRE(entries.size() == 7);
  for (std::size_t index = 0; index < entries.size(); ++index)
    CHECK(entries[index].sequence == index + 1);
  CHECK(entries[3].event == drain_event{shutdown_requested{}});
  CHECK(entries[3].at == instant{2500ms});  // each with its own time, not the write's
  CHECK_FALSE(replay_journal(read.contents->header, entries).first_difference);
  drain_machine recovered{read.contents->header.config};
  for (const auto& entry : entries) (void)recovered.step(entry.event, entry.at);
  CHECK(recovered.state().status == warden_status::shutting_down);
  CHECK(recovered.state().drain_started_at == instant{2500ms});
  CHECK(recovered.state().jobs_running == 0u);
  CHECK(recovered.state().runner_pid == 77);
}
