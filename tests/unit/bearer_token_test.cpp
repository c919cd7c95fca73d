// The token file's rules (trailing newline trimmed, empty or odd files refused, errors that
// name the file and never the token) and the comparison, checked on files written to a
// fresh temporary directory.

#include "src/control/bearer_token.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

class token_dir {
 public:
  token_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rw-token-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~token_dir() { std::filesystem::remove_all(path_); }

  std::string write(const std::string& text) const {
    const auto file = (path_ / "token").string();
    std::ofstream{file, std::ios::binary} << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("a token file gives its first line without the line break", "[control][token]") {
  token_dir dir;
  const auto text = GENERATE(as<std::string>{}, "s3cret", "s3cret\n", "s3cret\r\n", "s3cret\n\n");
  const auto read = runwarden::read_token_file(dir.write(text));
  REQUIRE(read.token);
  CHECK(*read.token == "s3cret");
}

TEST_CASE("bad token files are refused without quoting them", "[control][token]") {
  token_dir dir;
  const auto [text, error_part] = GENERATE(table<std::string, std::string>({
      {"", "is empty"},
      {"\n", "is empty"},
      {"two words", "spaces or control characters"},
      {"line\nbreak", "spaces or control characters"},
      {std::string(5000, 't'), "larger than"},
  }));
  const auto file = dir.write(text);
  const auto read = runwarden::read_token_file(file);
  CHECK_FALSE(read.token);
  CHECK_THAT(read.error, Catch::Contains(error_part) && Catch::Contains(file));
  if (!text.empty() && text != "\n") CHECK_THAT(read.error, !Catch::Contains(text));
  CHECK_THAT(runwarden::read_token_file(file + ".missing").error, Catch::Contains("cannot read"));
}

TEST_CASE("tokens compare equal only when equal", "[control][token]") {
  CHECK(runwarden::equal_in_constant_time("abc", "abc"));
  CHECK_FALSE(runwarden::equal_in_constant_time("abc", "abd"));
  CHECK_FALSE(runwarden::equal_in_constant_time("abc", "ab"));
  CHECK_FALSE(runwarden::equal_in_constant_time("", "a"));
  CHECK(runwarden::equal_in_constant_time("", ""));
  CHECK(runwarden::authorization_value("t") == "Bearer t");
}
