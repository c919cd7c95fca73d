// The pure parts of the credentials chain: the environment, the shared credentials file with
// its profiles, and the instance role's JSON document. Besides the good cases, every error
// is checked to name where the problem is and never to contain a secret value.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "src/aws/environment_credentials.hpp"
#include "src/aws/imds_role_credentials.hpp"
#include "src/aws/shared_credentials_file.hpp"

namespace {

using namespace runwarden;

constexpr const char* secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

const std::string credentials_file = R"(# comment
[default]
aws_access_key_id = AKIDDEFAULT
aws_secret_access_key = wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY

[ci.runners]
aws_access_key_id=ASIARUNNERS
aws_secret_access_key=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY
aws_session_token=token-value

[no-secret]
aws_access_key_id = AKIDONLY
)";

template <typename T>
concept streamable = requires(std::ostream& stream, const T& value) {
  stream << value;
};

// A secret cannot reach a log line or an error message by accident: no stream operator, no
// fmt formatter, no conversion to text. These fail to compile, not at run time.
static_assert(!streamable<secret_text>);
static_assert(!fmt::is_formattable<secret_text>::value);
static_assert(!std::is_convertible_v<secret_text, std::string>);
static_assert(!std::is_convertible_v<secret_text, std::string_view>);

}  // namespace

TEST_CASE("environment credentials, with and without a session token", "[aws-credentials]") {
  const auto plain = credentials_from_environment(
      {{"AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"}, {"AWS_SECRET_ACCESS_KEY", secret}});
  REQUIRE(plain.credentials);
  CHECK(plain.credentials->access_key_id == "AKIDEXAMPLE");
  CHECK(plain.credentials->secret_access_key.reveal() == secret);
  CHECK_FALSE(plain.credentials->session_token);

  const auto temporary = credentials_from_environment({{"AWS_ACCESS_KEY_ID", "ASIAEXAMPLE"},
                                                       {"AWS_SECRET_ACCESS_KEY", secret},
                                                       {"AWS_SESSION_TOKEN", "token-value"}});
  REQUIRE(temporary.credentials);
  REQUIRE(temporary.credentials->session_token);
  CHECK(temporary.credentials->session_token->reveal() == "token-value");
}

TEST_CASE("environment without keys is not configured, half a pair is an error",
          "[aws-credentials]") {
  const auto none = credentials_from_environment({{"AWS_ACCESS_KEY_ID", ""}, {"HOME", "/root"}});
  CHECK_FALSE(none.credentials);
  CHECK(none.error.empty());
  const auto half = credentials_from_environment({{"AWS_SECRET_ACCESS_KEY", secret}});
  CHECK_FALSE(half.credentials);
  CHECK(half.error == "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not");
  CHECK(credentials_from_environment({{"AWS_ACCESS_KEY_ID", "AKID"}}).error ==
        "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");
}

TEST_CASE("the shared credentials file's path and profile come from the environment",
          "[aws-credentials]") {
  CHECK(shared_credentials_path({{"HOME", "/home/ci"}}) == "/home/ci/.aws/credentials");
  CHECK(shared_credentials_path(
            {{"HOME", "/home/ci"}, {"AWS_SHARED_CREDENTIALS_FILE", "/etc/c"}}) == "/etc/c");
  CHECK(shared_credentials_path({}).empty());
  CHECK(credentials_profile({}) == "default");
  CHECK(credentials_profile({{"AWS_PROFILE", "ci.runners"}}) == "ci.runners");
}

TEST_CASE("profiles of the shared credentials file", "[aws-credentials]") {
  const auto fallback = credentials_from_shared_file(credentials_file, "/c", "default");
  REQUIRE(fallback.credentials);
  CHECK(fallback.credentials->access_key_id == "AKIDDEFAULT");
  CHECK(fallback.credentials->secret_access_key.reveal() == secret);
  CHECK_FALSE(fallback.credentials->session_token);

  // A dotted profile name is one name, not a path.
  const auto runners = credentials_from_shared_file(credentials_file, "/c", "ci.runners");
  REQUIRE(runners.credentials);
  CHECK(runners.credentials->access_key_id == "ASIARUNNERS");
  REQUIRE(runners.credentials->session_token);
  CHECK(runners.credentials->session_token->reveal() == "token-value");
}

TEST_CASE("shared credentials file errors name file, line, profile and key", "[aws-credentials]") {
  CHECK(credentials_from_shared_file(credentials_file, "/c", "missing").error ==
        "the shared credentials file /c has no profile [missing]");
  CHECK(credentials_from_shared_file(credentials_file, "/c", "no-secret").error ==
        "the shared credentials file /c, profile [no-secret] has no aws_secret_access_key");
  const auto broken = credentials_from_shared_file(
      "[default]\naws_access_key_id = AKID\nwJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY\n", "/c",
      "default");
  CHECK_FALSE(broken.credentials);
  CHECK_THAT(broken.error, Catch::StartsWith("the shared credentials file /c, line 3: "));
  CHECK(broken.error.find(secret) == std::string::npos);
}

TEST_CASE("the instance role credentials document", "[aws-credentials]") {
  const auto parse = parse_role_credentials(R"({
    "Code": "Success", "LastUpdated": "2024-05-01T12:00:00Z", "Type": "AWS-HMAC",
    "AccessKeyId": "ASIAROLE", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    "Token": "role-token", "Expiration": "2024-05-01T18:00:00Z"})");
  REQUIRE(parse.role);
  CHECK(parse.role->credentials.access_key_id == "ASIAROLE");
  CHECK(parse.role->credentials.secret_access_key.reveal() == secret);
  REQUIRE(parse.role->credentials.session_token);
  CHECK(parse.role->credentials.session_token->reveal() == "role-token");
  CHECK(parse.role->expiration ==
        std::chrono::sys_days{std::chrono::year{2024} / 5 / 1} + std::chrono::hours{18});
}

TEST_CASE("bad role documents give errors without the secret", "[aws-credentials]") {
  const std::string truncated =
      R"({"Code": "Success", "AccessKeyId": "ASIAROLE", "SecretAccessKey": "wJalrXUtnFEMI/K7MD)";
  const auto cut = parse_role_credentials(truncated);
  CHECK_FALSE(cut.role);
  CHECK(cut.error == "the instance role credentials document is not valid JSON (" +
                         std::to_string(truncated.size()) + " bytes)");
  CHECK(parse_role_credentials("[1, 2]").error ==
        "the instance role credentials document is not a JSON object");
  CHECK(parse_role_credentials(R"({"Code": "AssumeRoleUnauthorizedAccess"})").error ==
        "the instance role credentials document reports Code AssumeRoleUnauthorizedAccess, "
        "not Success");
  const auto no_token = parse_role_credentials(
      R"({"AccessKeyId": "A", "SecretAccessKey": "wJalrXUtnFEMI", "Expiration": "x"})");
  CHECK(no_token.error ==
        "the instance role credentials document has no Token (or it is not a "
        "non-empty string)");
  CHECK(no_token.error.find("wJalrXUtnFEMI") == std::string::npos);
  CHECK(parse_role_credentials(R"({"AccessKeyId": "A", "SecretAccessKey": "S", "Token": "T",
                                   "Expiration": "tomorrow"})")
            .error ==
        "the instance role credentials document has an Expiration that is not an "
        "RFC 3339 time: tomorrow");
}

TEST_CASE("the role name is the listing's first line", "[aws-credentials]") {
  CHECK(first_role_name("runner-role\n") == std::optional<std::string>{"runner-role"});
  CHECK(first_role_name("a\r\nb") == std::optional<std::string>{"a"});
  CHECK_FALSE(first_role_name(""));
}
