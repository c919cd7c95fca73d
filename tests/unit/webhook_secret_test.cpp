// The secret file is read from real temporary files: one trailing line break is dropped and
// nothing else, and every refusal names the path but never the content.

#include "src/webhook/webhook_secret.hpp"
#include "src/util/secret_file.hpp"

#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

class secret_file {
 public:
  explicit secret_file(const std::string& content)
      : path_(
            std::filesystem::temp_directory_path() /
            ("runwarden-secret-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    std::ofstream{path_, std::ios::binary} << content;
  }
  ~secret_file() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("read_webhook_secret drops trailing line breaks", "[webhook]") {
  CHECK(runwarden::read_webhook_secret(secret_file{"s3cret\n"}.path()).secret == "s3cret");
  CHECK(runwarden::read_webhook_secret(secret_file{"s3cret\r\n"}.path()).secret == "s3cret");
  CHECK(runwarden::read_webhook_secret(secret_file{" s3 cret\n\n"}.path()).secret == " s3 cret");
}

TEST_CASE("read_webhook_secret refuses missing, empty and oversized files", "[webhook]") {
  const auto missing = runwarden::read_webhook_secret("/nonexistent/runwarden-secret");
  CHECK_FALSE(missing.secret);
  CHECK_THAT(missing.error, Catch::Contains("/nonexistent/runwarden-secret"));
  CHECK_THAT(runwarden::read_webhook_secret(secret_file{"\n"}.path()).error,
             Catch::Contains("is empty"));
  const std::string big(runwarden::secret_file_bytes_max + 1, 'k');
  const auto oversized = runwarden::read_webhook_secret(secret_file{big}.path());
  CHECK_THAT(oversized.error, Catch::Contains("larger than"));
  CHECK_THAT(oversized.error, !Catch::Contains("kkkk"));
  CHECK_THAT(runwarden::read_webhook_secret("/tmp").error, Catch::Contains("directory"));
}
