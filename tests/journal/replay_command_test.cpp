// `runwarden replay` from outside: the test records a drain into a journal with the
// library (as the warden does), then runs the built binary on it and judges its exit code,
// stdout and stderr. Replaying twice must print the same bytes; --check must pass on the
// journal as recorded and fail, naming the entry, once a recorded effect is altered; a
// torn tail is reported and the good prefix still replays; a newer format is refused.
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "src/journal/journal_codec.hpp"
#include "src/journal/journal_frame.hpp"
#include "src/journal/journal_reader.hpp"
#include "tests/common/file_bytes.hpp"
#include "tests/integration/process_harness.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden_test;
using runwarden::testing::file_bytes;

struct finished {
  std::optional<int> code;
  std::string out;
  std::string err;
};

finished replay(const temp_dir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "replay");
  warden_process process{dir, args};
  const auto code = process.wait_exit();
  return finished{code, process.stdout_text(), process.stderr_text()};
}

void write_bytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream{file, std::ios::binary | std::ios::trunc} << bytes;
}

// The journal again, with entry `sequence`'s first recorded effect replaced.
std::string with_altered_effect(const std::filesystem::path& file, std::uint64_t sequence) {
  using namespace runwarden;
  const auto read = read_journal(file);
  REQUIRE(read.contents);
  std::string bytes = encode_prologue() + encode_frame(encode_record(read.contents->header));
  for (auto entry : read.contents->entries) {
    if (entry.sequence == sequence) entry.effects.at(0) = "altered effect";
    bytes += encode_frame(encode_record(entry));
  }
  return bytes;
}

}  // namespace

TEST_CASE("replay prints the recorded drain's effects, the same bytes every time",
          "[process][journal]") {
  temp_dir dir;
  const auto journal = dir.file("journal");
  runwarden::testing::write_recorded_drain(journal);
  const auto first = replay(dir, {journal.string()});
  INFO("stderr:\n" << first.err);
  CHECK(first.code == 0);
  CHECK(first.err.empty());
  CHECK_THAT(first.out, Catch::StartsWith("#1 at=0ns warden_started\n  spawn_runner\n"));
  CHECK_THAT(first.out, Catch::Contains("  signal_runner kill SIGKILL pid=101\n"));
  const auto second = replay(dir, {journal.string()});
  CHECK(second.code == 0);
  CHECK(second.out == first.out);
  const auto checked = replay(dir, {journal.string(), "--check"});
  CHECK(checked.code == 0);
  CHECK(checked.out == "checked 11 entries: effects identical\n");
}

TEST_CASE("replay --check names the first entry whose effects differ", "[process][journal]") {
  temp_dir dir;
  const auto journal = dir.file("journal");
  runwarden::testing::write_recorded_drain(journal);
  write_bytes(journal, with_altered_effect(journal, 3));
  const auto checked = replay(dir, {journal.string(), "--check"});
  CHECK(checked.code == 1);
  CHECK_THAT(checked.err, Catch::Contains("effects differ at entry 3, effect 1: recorded "
                                          "'altered effect', replayed '"));
  CHECK(checked.out.empty());
}

TEST_CASE("replay reports a torn tail and replays the good prefix", "[process][journal]") {
  temp_dir dir;
  const auto journal = dir.file("journal");
  runwarden::testing::write_recorded_drain(journal);
  const auto bytes = file_bytes(journal);
  write_bytes(journal, bytes.substr(0, bytes.size() - 4));
  const auto replayed = replay(dir, {journal.string(), "--check"});
  CHECK(replayed.code == 0);
  CHECK_THAT(replayed.err, Catch::Contains("damaged tail ignored: record 11 at offset"));
  CHECK(replayed.out == "checked 10 entries: effects identical\n");
  CHECK(file_bytes(journal) == bytes.substr(0, bytes.size() - 4));  // replay only reads
}

TEST_CASE("replay refuses what it cannot read", "[process][journal]") {
  temp_dir dir;
  const auto journal = dir.file("journal");
  SECTION("a newer format version") {
    runwarden::testing::write_recorded_drain(journal);
    auto bytes = file_bytes(journal);
    bytes.replace(0, runwarden::journal_prologue_bytes, runwarden::encode_prologue(2));
    write_bytes(journal, bytes);
    const auto replayed = replay(dir, {journal.string()});
    CHECK(replayed.code == 65);
    CHECK_THAT(replayed.err, Catch::Contains("format version 2 is newer"));
  }
  SECTION("not a journal") {
    write_bytes(journal, "hello\n");
    const auto replayed = replay(dir, {journal.string()});
    CHECK(replayed.code == 65);
    CHECK_THAT(replayed.err, Catch::Contains("not a runwarden journal"));
  }
  SECTION("no file") {
    const auto replayed = replay(dir, {journal.string()});
    CHECK(replayed.code == 66);
    CHECK_THAT(replayed.err, Catch::Contains("no journal at"));
  }
  SECTION("no argument") { CHECK(replay(dir, {}).code == 64); }
}
