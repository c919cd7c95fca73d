// Replay: a drain recorded through the machine and the writer, read back and replayed,
// gives the effects recorded, the same text twice over, and --check's first difference
// when the recorded effects are tampered with.
#include <catch2/catch.hpp>

#include "src/journal/journal_reader.hpp"
#include "src/journal/journal_replay.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;

journal_contents recorded_contents() {
  journal_temp_dir dir;
  write_recorded_drain(dir.file("journal"));
  auto read = read_journal(dir.file("journal"));
  REQUIRE(read.contents);
  return std::move(*read.contents);
}

}  // namespace

TEST_CASE("a recorded drain replays to its recorded effects", "[journal][replay]") {
  const auto contents = recorded_contents();
  const auto result = replay_journal(contents.header, contents.entries);
  CHECK_FALSE(result.first_difference);
  CHECK_THAT(result.text, Catch::StartsWith("#1 at=0ns warden_started\n  spawn_runner\n"));
  CHECK_THAT(result.text, Catch::Contains("#2 at=10000000ns runner_spawned pid=100\n"));
  CHECK_THAT(result.text, Catch::Contains("shutdown_requested control_api deadline="
                                          "180000000000ns callback=https://ci.example/hook"));
  CHECK_THAT(result.text, Catch::Contains("  signal_runner kill SIGKILL pid=101\n"));
  CHECK_THAT(result.text, Catch::Contains("  change_status shutting_down->gone\n"));
  CHECK_THAT(result.text, !Catch::Contains("t0k"));  // header values may be credentials
}

TEST_CASE("replay is byte-identical run after run", "[journal][replay]") {
  const auto first = replay_journal(recorded_contents().header, recorded_contents().entries);
  const auto second = replay_journal(recorded_contents().header, recorded_contents().entries);
  CHECK(first.text == second.text);
  CHECK_FALSE(first.text.empty());
}

TEST_CASE("check mode reports the first difference", "[journal][replay]") {
  auto contents = recorded_contents();
  auto& entry = contents.entries[2];  // the runner's first exit
  REQUIRE(entry.effects.size() >= 2);
  SECTION("a changed effect") {
    const auto replayed = entry.effects[1];
    entry.effects[1] = "spawn_runner";
    contents.entries[7].effects.clear();  // a later difference stays unreported
    const auto result = replay_journal(contents.header, contents.entries);
    REQUIRE(result.first_difference);
    CHECK(result.first_difference->sequence == 3);
    CHECK(result.first_difference->effect_index == 1);
    CHECK(describe(*result.first_difference) ==
          "entry 3, effect 2: recorded 'spawn_runner', replayed '" + replayed + "'");
  }
  SECTION("an effect the live run did not record") {
    entry.effects.pop_back();
    const auto result = replay_journal(contents.header, contents.entries);
    REQUIRE(result.first_difference);
    CHECK_FALSE(result.first_difference->recorded);
    CHECK_THAT(describe(*result.first_difference), Catch::Contains("recorded nothing"));
  }
  SECTION("an effect the replay does not produce") {
    entry.effects.push_back("exit_warden code=0");
    const auto result = replay_journal(contents.header, contents.entries);
    REQUIRE(result.first_difference);
    CHECK_THAT(describe(*result.first_difference),
               Catch::EndsWith("recorded 'exit_warden code=0', replayed nothing"));
  }
  SECTION("a different config") {
    contents.header.config.kill_timeout += std::chrono::seconds{1};
    const auto result = replay_journal(contents.header, contents.entries);
    REQUIRE(result.first_difference);
    CHECK(result.first_difference->sequence == 9);  // the deadline arms the kill timer
  }
}
