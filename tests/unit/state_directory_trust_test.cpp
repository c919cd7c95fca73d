// The state directory is trusted only when runwarden's own uid owns it and nobody else may
// write in it, and no file in it is opened through a link: as root, a link planted there
// would make runwarden truncate or write any file on the machine. Each case plants the
// hostile directory or link in a fresh temporary directory, opens the journal the way
// `runwarden run` does (run_journal::open), and checks the refusal, its words, and that the
// link's target is untouched.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "src/assembly/run_journal.hpp"
#include "src/journal/journal_location.hpp"
#include "src/journal/journal_reader.hpp"
#include "src/journal/journal_writer.hpp"
#include "src/journal/state_directory.hpp"
#include "src/util/exit_codes.hpp"
#include "tests/unit/journal_samples.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;

constexpr const char* target_text = "precious, not runwarden's\n";

std::string contents_of(const std::filesystem::path& file) {
  std::ifstream in{file, std::ios::binary};
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

run_journal_open open_in(const std::filesystem::path& directory) {
  settings config;
  config.journal.state_directory = directory.string();
  return run_journal::open(config, journal_test_config(), {});
}

// A state directory inside the temporary one, and a file outside it a link may aim at.
struct planted {
  journal_temp_dir temp;
  std::filesystem::path state = temp.path() / "state";
  std::filesystem::path target = temp.path() / "target";
  planted() {
    REQUIRE(::mkdir(state.c_str(), 0700) == 0);
    std::ofstream{target} << target_text;
  }
};

}  // namespace

TEST_CASE("a state directory group or others may write is refused", "[journal][trust]") {
  planted p;
  const auto mode = GENERATE(mode_t{0777}, mode_t{0770}, mode_t{0702}, mode_t{01777});
  REQUIRE(::chmod(p.state.c_str(), mode) == 0);
  CAPTURE(mode);
  const auto opened = open_in(p.state);
  REQUIRE_FALSE(opened.journal);
  CHECK(opened.exit_code == exit_cant_create);
  CHECK_THAT(opened.error, Catch::Contains("refusing the state directory " + p.state.string()));
  CHECK_THAT(opened.error, Catch::Contains("lets group or others write"));
  CHECK_FALSE(std::filesystem::exists(journal_file(p.state)));
}

TEST_CASE("a state directory owned by another uid is refused", "[journal][trust]") {
  planted p;
  if (::geteuid() == 0) {
    REQUIRE(::chown(p.state.c_str(), 65534, 65534) == 0);
    const auto opened = open_in(p.state);
    REQUIRE_FALSE(opened.journal);
    CHECK_THAT(opened.error, Catch::Contains("belongs to uid 65534, not to runwarden's uid 0"));
  }
  // Without root, the same check as seen by another uid.
  const auto problem = state_directory_problem(p.state, ::geteuid() + 1);
  REQUIRE(problem);
  CHECK_THAT(*problem, Catch::Contains("not to runwarden's uid"));
  CHECK_FALSE(state_directory_problem(p.temp.path(), ::geteuid()));
}

TEST_CASE("a directory of its own, 0700 or 0755, is accepted", "[journal][trust]") {
  planted p;
  const auto mode = GENERATE(mode_t{0700}, mode_t{0750}, mode_t{0755});
  REQUIRE(::chmod(p.state.c_str(), mode) == 0);
  CHECK(open_in(p.state).journal);
}

TEST_CASE("a link planted as any file of the state directory is refused, never followed",
          "[journal][trust]") {
  planted p;
  const auto name =
      GENERATE(as<std::string>{}, "lock", "journal", "journal.new", ".runwarden-write-probe");
  CAPTURE(name);
  std::filesystem::create_symlink(p.target, p.state / name);
  const auto opened = open_in(p.state);
  REQUIRE_FALSE(opened.journal);
  CHECK_THAT(opened.error, Catch::Contains("symbolic link"));
  CHECK(contents_of(p.target) == target_text);
  // The link is left, or removed as the failed staging file is: never a file in its place.
  CHECK_FALSE(std::filesystem::is_regular_file(std::filesystem::symlink_status(p.state / name)));
}

TEST_CASE("journal reads and appends refuse a link", "[journal][trust]") {
  planted p;
  const auto link = p.state / "journal";
  std::filesystem::create_symlink(p.target, link);
  CHECK_THAT(read_journal(link).error, Catch::Contains("symbolic link"));
  CHECK_THAT(recover_journal(link).error, Catch::Contains("symbolic link"));
  CHECK_FALSE(journal_writer::reopen(link, 0, journal_sync_policy{}).writer);
  CHECK(contents_of(p.target) == target_text);
}
