// `runwarden ctl` sends its bearer token only to a socket in a directory that the caller
// (or root) owns and nobody else may write in: the default /tmp/runwarden-UID can be made
// first by any local user. Each case plants such a directory in a fresh temporary
// directory and checks the refusal and its words; ownership changes need root and are
// skipped without it.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "src/control/unix_socket_file.hpp"

namespace {

constexpr uid_t nobody = 65534;

struct planted_directory {
  std::filesystem::path root;
  std::filesystem::path dir;
  planted_directory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rw-ctl-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    dir = root / "runwarden-1000";
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
  }
  ~planted_directory() { std::filesystem::remove_all(root); }
};

}  // namespace

using runwarden::client_socket_directory_problem;

TEST_CASE("ctl trusts its own directory that only it may write", "[ctl][socket]") {
  planted_directory planted;
  CHECK(client_socket_directory_problem(planted.dir.string(), ::geteuid()).empty());
  REQUIRE(::chmod(planted.dir.c_str(), 0750) == 0);
  CHECK(client_socket_directory_problem(planted.dir.string(), ::geteuid()).empty());
  // A missing directory holds no socket; connecting reports that by itself.
  CHECK(client_socket_directory_problem((planted.root / "none").string(), ::geteuid()).empty());
}

TEST_CASE("ctl refuses a directory group or others may write", "[ctl][socket]") {
  planted_directory planted;
  const auto mode = GENERATE(mode_t{0777}, mode_t{0770}, mode_t{0702}, mode_t{01777});
  REQUIRE(::chmod(planted.dir.c_str(), mode) == 0);
  const auto problem = client_socket_directory_problem(planted.dir.string(), ::geteuid());
  CAPTURE(mode, problem);
  CHECK_THAT(problem, Catch::Contains(planted.dir.string()));
  CHECK_THAT(problem, Catch::Contains("lets group or others write"));
}

TEST_CASE("ctl refuses a directory another user owns", "[ctl][socket]") {
  if (::geteuid() != 0) return;  // only root can plant a directory owned by another uid
  planted_directory planted;
  REQUIRE(::chown(planted.dir.c_str(), nobody, nobody) == 0);
  const auto problem = client_socket_directory_problem(planted.dir.string(), 1000);
  CHECK_THAT(problem, Catch::Contains("belongs to uid 65534, not to you (uid 1000) or root"));
  // Root's own directories are trusted by every caller.
  REQUIRE(::chown(planted.dir.c_str(), 0, 0) == 0);
  CHECK(client_socket_directory_problem(planted.dir.string(), 1000).empty());
}

TEST_CASE("ctl refuses a symbolic link in place of the directory", "[ctl][socket]") {
  planted_directory planted;
  const auto link = planted.root / "runwarden-link";
  std::filesystem::create_directory_symlink(planted.dir, link);
  CHECK_THAT(client_socket_directory_problem(link.string(), ::geteuid()),
             Catch::Contains("not a directory"));
}
