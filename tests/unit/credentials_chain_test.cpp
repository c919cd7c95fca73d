// The credentials chain's start, in the SDKs' order: environment, shared file, instance role.
#include <catch2/catch.hpp>

#include "src/aws/credentials_chain.hpp"

namespace {
using namespace runwarden;
constexpr auto file = "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = s3cret\n";
}  // namespace

TEST_CASE("the environment comes first, then the shared file, then the instance role",
          "[credentials]") {
  const environment_map both{
      {"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "x"}, {"HOME", "/home/r"}};
  auto start = start_credentials_chain(both, file);
  REQUIRE(start.fixed);
  CHECK(start.fixed->access_key_id == "AKIDENV");
  CHECK(start.source == "the environment");

  start = start_credentials_chain({{"HOME", "/home/r"}}, file);
  REQUIRE(start.fixed);
  CHECK(start.fixed->access_key_id == "AKIDFILE");
  CHECK(start.source == "/home/r/.aws/credentials (profile default)");

  start = start_credentials_chain({{"HOME", "/home/r"}}, std::nullopt);
  CHECK_FALSE(start.fixed);
  CHECK(start.use_instance_role);
  CHECK(start.error.empty());
}

TEST_CASE("a configured source that is wrong stops the chain", "[credentials]") {
  auto start = start_credentials_chain({{"AWS_ACCESS_KEY_ID", "AKIDENV"}}, file);
  CHECK_FALSE(start.fixed);
  CHECK_FALSE(start.use_instance_role);
  CHECK(start.error == "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");

  start =
      start_credentials_chain({{"AWS_SHARED_CREDENTIALS_FILE", "/etc/aws/creds"}}, std::nullopt);
  CHECK(start.error == "AWS_SHARED_CREDENTIALS_FILE names /etc/aws/creds, which cannot be read");

  start = start_credentials_chain({{"HOME", "/home/r"}, {"AWS_PROFILE", "ci"}}, file);
  CHECK_FALSE(start.error.empty());
  CHECK(start.error.find("s3cret") == std::string::npos);
}
