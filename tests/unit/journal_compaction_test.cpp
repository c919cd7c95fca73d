// Compaction on size: a long-lived runwarden's journal, past journal.compact_bytes outside a
// drain, becomes the three entries that rebuild the present (runwarden running, the runner
// process to adopt, its jobs), replays to its recorded effects, and recovers to the same
// state; during a drain nothing is compacted.
#include <catch2/catch.hpp>

#include "src/assembly/run_journal.hpp"
#include "src/journal/journal_compaction.hpp"
#include "src/journal/journal_location.hpp"
#include "src/journal/journal_reader.hpp"
#include "src/journal/journal_replay.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

struct live_run {
  drain_machine machine{journal_test_config()};
  instant now{1s};

  std::optional<std::string> step(run_journal& journal, const drain_event& event) {
    now += 1s;
    return journal.append(now, event, machine.step(event, now));
  }
};

settings compacting_at(const std::filesystem::path& directory, std::uint64_t bytes) {
  settings config;
  config.journal.state_directory = directory.string();
  config.journal.compact_bytes = bytes;
  return config;
}

}  // namespace

TEST_CASE("only a running runner, outside a drain, is compacted", "[journal][compaction]") {
  const auto config = journal_test_config();
  followed_machine machine{config};
  const instant t{1s};
  CHECK_FALSE(machine.compacted(t));  // starting, spawning
  (void)machine.step(warden_started{}, t);
  CHECK_FALSE(machine.compacted(t));
  (void)machine.step(runner_spawned{77}, t);
  (void)machine.step(runner_load_observed{3u}, t);
  const auto steps = machine.compacted(t);
  REQUIRE(steps);
  REQUIRE(steps->size() == 3);
  CHECK(steps->at(1).event == drain_event{runner_spawned{77}});
  CHECK(steps->at(2).event == drain_event{runner_load_observed{3u}});
  (void)machine.step(shutdown_requested{}, t);
  CHECK_FALSE(machine.compacted(t));
}

// The entries keep the times of the facts they stand for, and restarts the budget still
// counts keep the history.
TEST_CASE("compacted entries keep the first start's and the spawn's times",
          "[journal][compaction]") {
  const auto config = journal_test_config();
  followed_machine machine{config};
  (void)machine.step(warden_started{}, instant{10s});
  (void)machine.step(runner_spawned{77}, instant{11s});
  (void)machine.step(runner_exited{77, exit_status{.value = 1}}, instant{20s});
  REQUIRE(machine.state().timers.restart_backoff);
  const auto backoff = *machine.state().timers.restart_backoff;
  (void)machine.step(timer_fired{timer_kind::restart_backoff, backoff.id}, backoff.at);
  (void)machine.step(runner_spawned{78}, backoff.at + 5ms);
  (void)machine.step(runner_load_observed{1u}, instant{40s});
  CHECK_FALSE(machine.compacted(instant{60s}));  // the restart at 20 s counts for 90 s
  const auto steps = machine.compacted(instant{2h});
  REQUIRE(steps);
  CHECK(steps->front().at == instant{10s});
  CHECK(steps->at(1).at == backoff.at + 5ms);
  CHECK(steps->at(1).event == drain_event{runner_spawned{78}});
  CHECK(steps->back().at == instant{2h});
}

TEST_CASE("a journal past its size is compacted to the present, and recovers to it",
          "[journal][compaction]") {
  journal_temp_dir dir;
  auto opened = run_journal::open(compacting_at(dir.path(), 4096), journal_test_config(), {});
  REQUIRE(opened.journal);
  live_run live;
  REQUIRE_FALSE(live.step(*opened.journal, warden_started{}));
  REQUIRE_FALSE(live.step(*opened.journal, runner_spawned{4242}));
  const auto file = journal_file(dir.path());
  std::uintmax_t largest = 0;
  for (std::uint32_t i = 0; i < 200; ++i) {
    REQUIRE_FALSE(live.step(*opened.journal, runner_load_observed{i % 5}));
    largest = std::max(largest, std::filesystem::file_size(file));
  }
  CHECK(largest <= 4096 + 512);  // never much past the limit
  const auto read = read_journal(file);
  REQUIRE(read.contents);
  const auto& entries = read.contents->entries;
  CHECK(entries.size() < 60);  // of 202 appended: about one limit's worth, at most
  CHECK_FALSE(replay_journal(read.contents->header, entries).first_difference);
  drain_machine recovered{read.contents->header.config};
  for (const auto& entry : entries) (void)recovered.step(entry.event, entry.at);
  CHECK(recovered.state().status == warden_status::running);
  CHECK(recovered.state().runner_pid == 4242);
  CHECK(recovered.state().jobs_running == live.machine.state().jobs_running);
}

TEST_CASE("a drain's history is never compacted", "[journal][compaction]") {
  journal_temp_dir dir;
  auto opened = run_journal::open(compacting_at(dir.path(), 4096), journal_test_config(), {});
  REQUIRE(opened.journal);
  live_run live;
  REQUIRE_FALSE(live.step(*opened.journal, warden_started{}));
  REQUIRE_FALSE(live.step(*opened.journal, runner_spawned{4242}));
  REQUIRE_FALSE(live.step(*opened.journal, shutdown_requested{}));
  for (std::uint32_t i = 0; i < 200; ++i)
    REQUIRE_FALSE(live.step(*opened.journal, runner_load_observed{i % 5}));
  const auto read = read_journal(journal_file(dir.path()));
  REQUIRE(read.contents);
  CHECK(read.contents->entries.size() == 203);
}
