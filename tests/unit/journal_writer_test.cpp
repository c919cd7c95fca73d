// The writer and the state directory on a real file system: a new journal, appends under
// each sync policy, refusals (a journal already there, a directory that cannot be written),
// a write cut short and repaired, the 0700 state directory and retirement to journal.prev
// after a drain.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "src/journal/journal_location.hpp"
#include "src/journal/journal_reader.hpp"
#include "src/journal/state_directory.hpp"
#include "tests/unit/file_size_limit.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;

journal_header test_header() {
  return journal_header{
      .created_by = "test", .created_unix_ns = 5, .config = journal_test_config()};
}

std::filesystem::perms permissions_of(const std::filesystem::path& path) {
  return std::filesystem::status(path).permissions() & std::filesystem::perms::all;
}

}  // namespace

TEST_CASE("appends read back under every sync policy", "[journal][writer]") {
  const auto records_per_sync = GENERATE(0u, 1u, 3u);
  CAPTURE(records_per_sync);
  journal_temp_dir dir;
  const auto file = dir.file("journal");
  auto open = journal_writer::create(file, test_header(), {records_per_sync});
  REQUIRE(open.writer);
  auto& writer = *open.writer;
  CHECK(writer.next_sequence() == 1);
  for (int index = 0; index < 7; ++index)
    REQUIRE_FALSE(writer.append(instant{index}, runner_spawned{index}, {spawn_runner{}}));
  REQUIRE_FALSE(writer.sync());
  CHECK(writer.next_sequence() == 8);
  CHECK(writer.size_bytes() == std::filesystem::file_size(file));
  const auto read = read_journal(file);
  REQUIRE(read.contents);
  REQUIRE(read.contents->entries.size() == 7);
  CHECK(read.contents->entries[6].event == drain_event{runner_spawned{6}});
  CHECK(read.contents->entries[6].effects == std::vector<std::string>{"spawn_runner"});
  const auto owner_read_write =
      std::filesystem::perms::owner_read | std::filesystem::perms::owner_write;
  CHECK(permissions_of(file) == owner_read_write);
  CHECK_FALSE(std::filesystem::exists(dir.file("journal.new")));
}

TEST_CASE("the sync policy decides when appends are fsynced", "[journal][writer]") {
  journal_temp_dir dir;
  const auto [records_per_sync, expected] =
      GENERATE(std::pair{1u, std::vector<std::uint32_t>{0, 0, 0, 0, 0}},
               std::pair{3u, std::vector<std::uint32_t>{1, 2, 0, 1, 2}},
               std::pair{0u, std::vector<std::uint32_t>{1, 2, 3, 4, 5}});
  CAPTURE(records_per_sync);
  auto open = journal_writer::create(dir.file("journal"), test_header(), {records_per_sync});
  REQUIRE(open.writer);
  std::vector<std::uint32_t> unsynced;
  for (int index = 0; index < 5; ++index) {
    REQUIRE_FALSE(open.writer->append(instant{index}, reload_requested{}, {}));
    unsynced.push_back(open.writer->unsynced_records());
  }
  CHECK(unsynced == expected);
  REQUIRE_FALSE(open.writer->sync());  // the caller's interval flush
  CHECK(open.writer->unsynced_records() == 0);
}

TEST_CASE("a failed append is reported, and so is a later one that cannot repair it",
          "[journal][writer]") {
  // /dev/full takes the open and refuses every write with ENOSPC: a full disk. It cannot be
  // cut back to a last whole record either, so the next append says that.
  auto open = journal_writer::reopen("/dev/full", 0);
  REQUIRE(open.writer);
  const auto first = open.writer->append(instant{0}, warden_started{}, {spawn_runner{}});
  REQUIRE(first);
  CHECK_THAT(*first, Catch::Contains("cannot append to /dev/full") &&
                         Catch::Contains("No space left on device"));
  CHECK(open.writer->next_sequence() == 1);
  const auto second = open.writer->append(instant{1}, reload_requested{}, {});
  REQUIRE(second);
  CHECK_THAT(*second, Catch::Contains("cannot cut a partly written record from /dev/full"));
  CHECK(open.writer->next_sequence() == 1);
  CHECK(open.writer->usable());
}

TEST_CASE("a write cut short is cut back and written again whole, in order", "[journal][writer]") {
  journal_temp_dir dir;
  const auto file = dir.file("journal");
  auto open = journal_writer::create(file, test_header());
  REQUIRE(open.writer);
  auto& writer = *open.writer;
  REQUIRE_FALSE(writer.append(instant{1}, runner_spawned{41}, {spawn_runner{}}));
  const auto whole = writer.size_bytes();
  {
    const file_size_limit limit{static_cast<rlim_t>(whole + 5)};  // room for part of one
    const auto refused = writer.append(instant{2}, runner_spawned{42}, {spawn_runner{}});
    REQUIRE(refused);
    CHECK_THAT(*refused, Catch::Contains("cannot append to " + file.string()) &&
                             Catch::Contains("File too large"));
    CHECK(std::filesystem::file_size(file) == whole + 5);  // a torn record on disk
    CHECK(writer.size_bytes() == whole);
    CHECK(writer.next_sequence() == 2);
  }
  // The space is back: the same entry again, then the next.
  REQUIRE_FALSE(writer.append(instant{2}, runner_spawned{42}, {spawn_runner{}}));
  REQUIRE_FALSE(writer.append(instant{3}, reload_requested{}, {}));
  CHECK(writer.size_bytes() == std::filesystem::file_size(file));
  const auto read = read_journal(file);
  REQUIRE(read.contents);
  CHECK_FALSE(read.contents->damage);
  REQUIRE(read.contents->entries.size() == 3);
  CHECK(read.contents->entries[1].sequence == 2);
  CHECK(read.contents->entries[1].event == drain_event{runner_spawned{42}});
  CHECK(read.contents->entries[2].event == drain_event{reload_requested{}});
}

TEST_CASE("a journal is never created over another", "[journal][writer]") {
  journal_temp_dir dir;
  write_recorded_drain(dir.file("journal"));
  const auto before = std::filesystem::file_size(dir.file("journal"));
  const auto open = journal_writer::create(dir.file("journal"), test_header());
  CHECK_FALSE(open.writer);
  CHECK_THAT(open.error, Catch::Contains("exists already"));
  CHECK(std::filesystem::file_size(dir.file("journal")) == before);
}

TEST_CASE("the state directory is made 0700 and proven writable", "[journal][writer]") {
  journal_temp_dir dir;
  const auto state = dir.path() / "var" / "lib" / "runwarden";
  REQUIRE_FALSE(prepare_state_directory(state));
  CHECK(permissions_of(state) == std::filesystem::perms::owner_all);
  CHECK(std::filesystem::is_empty(state));
  REQUIRE_FALSE(prepare_state_directory(state));  // a second start finds it ready
}

TEST_CASE("an unusable state directory is a clear refusal", "[journal][writer]") {
  journal_temp_dir dir;
  std::ofstream{dir.file("plain-file")} << "not a directory";
  SECTION("a path through a regular file") {
    const auto state = dir.file("plain-file") / "runwarden";
    const auto error = prepare_state_directory(state);
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("plain-file") && Catch::Contains("Not a directory"));
    const auto open = journal_writer::create(journal_file(state), test_header());
    CHECK_FALSE(open.writer);
    CHECK_THAT(open.error, Catch::Contains("Not a directory"));
  }
  SECTION("a regular file where the directory belongs") {
    const auto error = prepare_state_directory(dir.file("plain-file"));
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("Not a directory"));
  }
  SECTION("a directory without write permission") {
    if (::geteuid() == 0) {
      WARN("running as root, where mode 0500 does not stop writes: chmod variant skipped");
      return;
    }
    const auto state = dir.file("read-only");
    REQUIRE_FALSE(prepare_state_directory(state));
    std::filesystem::permissions(
        state, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const auto error = prepare_state_directory(state);
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("not writable") && Catch::Contains("Permission denied"));
  }
}

TEST_CASE("a finished drain's journal is retired to journal.prev", "[journal][writer]") {
  journal_temp_dir dir;
  REQUIRE_FALSE(retire_journal(dir.path()));  // nothing to retire is fine
  write_recorded_drain(journal_file(dir.path()));
  REQUIRE_FALSE(retire_journal(dir.path()));
  CHECK_FALSE(std::filesystem::exists(journal_file(dir.path())));
  const auto first = read_journal(previous_journal_file(dir.path()));
  REQUIRE(first.contents);
  CHECK(first.contents->entries.size() == recorded_drain().size());
  // The next start begins afresh, and its retirement replaces the older journal.prev.
  auto open = journal_writer::create(journal_file(dir.path()), test_header());
  REQUIRE(open.writer);
  REQUIRE_FALSE(open.writer->append(instant{0}, warden_started{}, {}));
  REQUIRE_FALSE(retire_journal(dir.path()));
  const auto second = read_journal(previous_journal_file(dir.path()));
  REQUIRE(second.contents);
  CHECK(second.contents->entries.size() == 1);
}

TEST_CASE("the default state directory follows root, XDG and HOME", "[journal][location]") {
  using std::filesystem::path;
  CHECK(default_state_directory(0, "/xdg", "/home/x") == path{"/var/lib/runwarden"});
  CHECK(default_state_directory(1000, "/xdg/state", "/home/x") == path{"/xdg/state/runwarden"});
  CHECK(default_state_directory(1000, std::nullopt, "/home/x") ==
        path{"/home/x/.local/state/runwarden"});
  // The XDG specification: a relative or empty XDG_STATE_HOME is ignored.
  CHECK(default_state_directory(1000, "relative", "/home/x") ==
        path{"/home/x/.local/state/runwarden"});
  CHECK(default_state_directory(1000, "", "/home/x") == path{"/home/x/.local/state/runwarden"});
  CHECK(default_state_directory(1000, std::nullopt, std::nullopt) == std::nullopt);
  CHECK(default_state_directory(1000, std::nullopt, "") == std::nullopt);
  CHECK(journal_file("/s") == path{"/s/journal"});
  CHECK(previous_journal_file("/s") == path{"/s/journal.prev"});
}
