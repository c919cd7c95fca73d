// A secret file its group or others may read is used, with a warning that names the file
// and its mode; refused logins are logged at most once per window, with a count of the
// ones left out. Files are written to a fresh temporary directory; time is passed in.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "src/util/log_rate_limit.hpp"
#include "src/util/secret_file.hpp"

namespace {

struct secret_dir {
  std::filesystem::path path;
  secret_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rw-secret-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~secret_dir() { std::filesystem::remove_all(path); }
  std::string write(mode_t mode) const {
    const auto file = (path / "token").string();
    std::ofstream{file} << "s3cret-token\n";
    REQUIRE(::chmod(file.c_str(), mode) == 0);
    return file;
  }
};

}  // namespace

TEST_CASE("a secret file its group or others can read is warned about", "[secrets][token]") {
  secret_dir dir;
  const auto mode = GENERATE(mode_t{0644}, mode_t{0640}, mode_t{0604}, mode_t{0666});
  const auto file = dir.write(mode);
  const auto read = runwarden::read_secret_file(file, "token file");
  REQUIRE(read.secret);
  CAPTURE(mode, read.warning);
  CHECK_THAT(read.warning, Catch::Contains("token file " + file));
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode));
  CHECK_THAT(read.warning, Catch::Contains(std::string{"mode "} + text));
  CHECK_THAT(read.warning, !Catch::Contains("s3cret"));
}

TEST_CASE("a private secret file, or a file that holds no secret, is not", "[secrets][token]") {
  secret_dir dir;
  const auto mode = GENERATE(mode_t{0600}, mode_t{0400});
  CHECK(runwarden::read_secret_file(dir.write(mode), "token file").warning.empty());
  const auto system_id = runwarden::read_secret_file(dir.write(0644), "system id file",
                                                     runwarden::file_exposure::not_secret);
  CHECK(system_id.secret);
  CHECK(system_id.warning.empty());
}

TEST_CASE("a rate-limited log line: one per window, then the count left out", "[secrets][login]") {
  using namespace std::chrono_literals;
  runwarden::log_rate_limit limit{10s};
  const runwarden::log_rate_limit::clock::time_point start{};
  CHECK(limit.admit(start) == 0u);
  CHECK_FALSE(limit.admit(start + 1s));
  CHECK_FALSE(limit.admit(start + 9999ms));
  CHECK(limit.admit(start + 10s) == 2u);
  CHECK_FALSE(limit.admit(start + 15s));
  CHECK(limit.admit(start + 60s) == 1u);
  CHECK(limit.admit(start + 80s) == 0u);
}
