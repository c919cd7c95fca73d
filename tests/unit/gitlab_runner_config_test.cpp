// Discovery from gitlab-runner's config.toml: sample files under tests/data/gitlab-runner
// (a full one with the system id file beside it, a minimal one without, bad types, broken
// TOML), checked for every field runwarden takes, for errors that name file, line and key,
// and for tokens that never reach an error message.
#include "src/runner/gitlab_runner_config.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "src/runner/gitlab_runner_config_loader.hpp"

namespace {

using namespace runwarden;

const std::string data_directory = RUNWARDEN_TEST_DATA_DIR "/gitlab-runner/";

}  // namespace

TEST_CASE("a full config.toml gives address, concurrency, runners and system id",
          "[gitlab_runner][runner_config]") {
  const gitlab_runner_config_result result =
      load_gitlab_runner_config(data_directory + "config_dir/config.toml");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  const gitlab_runner_config& config = *result.config;
  CHECK(config.listen_address == ":9252");
  CHECK(config.concurrent == 4);
  CHECK(config.system_id == "s_0e6850b2bce1");
  CHECK(config.system_id_problem.empty());
  REQUIRE(config.runners.size() == 2);
  CHECK(config.runners[0].name == "ci-docker-01");
  CHECK(config.runners[0].url == "https://gitlab.example.com");
  CHECK(config.runners[0].token.reveal() == "glrt-t1_made-up-token-for-tests");
  CHECK(config.runners[0].jobs_max == 2);
  CHECK(config.runners[0].line == 9);
  CHECK(config.runners[1].token.reveal() == "made-up-legacy-token");
  CHECK(config.runners[1].jobs_max == 0);
}

TEST_CASE("a config without system id file loads and says why the id is missing",
          "[gitlab_runner][runner_config]") {
  const gitlab_runner_config_result result =
      load_gitlab_runner_config(data_directory + "config_without_system_id/config.toml");
  REQUIRE(result.config);
  CHECK_FALSE(result.config->listen_address);
  CHECK_FALSE(result.config->system_id);
  CHECK_THAT(result.config->system_id_problem, Catch::Contains(".runner_system_id: "));
}

TEST_CASE("wrong types are reported with file, line and key, never with a token",
          "[gitlab_runner][runner_config]") {
  const std::string path = data_directory + "config_bad_types.toml";
  const gitlab_runner_config_result result = load_gitlab_runner_config(path);
  CHECK_FALSE(result.config);
  CHECK(result.errors == std::vector<std::string>{
                             path + ":1: concurrent: expected an integer",
                             path + ":2: listen_address: expected a string",
                             path + ":10: runners[1].url: expected a string",
                             path + ":11: runners[1].token: expected a string",
                             path + ":12: runners[1].limit: must not be negative",
                         });
  for (const std::string& error : result.errors) CHECK_THAT(error, !Catch::Contains("12345"));
}

// gitlab-runner 19.1+ skips an entry whose token is missing, empty or blank (HasToken(),
// commands/multi.go feedRunner) and runs the others; refusing the file would stop a runner
// that gitlab-runner itself runs.
TEST_CASE("an entry without a usable token loads, and has_token says to skip it",
          "[gitlab_runner][runner_config]") {
  const auto result = parse_gitlab_runner_config(
      "[[runners]]\nurl = \"https://a\"\n"
      "[[runners]]\nurl = \"https://b\"\ntoken = \"\"\n"
      "[[runners]]\nurl = \"https://c\"\ntoken = \" \\t \"\n"
      "[[runners]]\nurl = \"https://d\"\ntoken = \"glrt-x\"\nid = 42\n",
      "config.toml");
  REQUIRE(result.config);
  const auto& runners = result.config->runners;
  REQUIRE(runners.size() == 4);
  CHECK_FALSE(has_token(runners[0]));
  CHECK_FALSE(has_token(runners[1]));
  CHECK_FALSE(has_token(runners[2]));
  CHECK(has_token(runners[3]));
  CHECK(runners[0].id == 0);
  CHECK(runners[3].id == 42);
}

TEST_CASE("a runner id that is no count is reported with its line",
          "[gitlab_runner][runner_config]") {
  const auto result = parse_gitlab_runner_config(
      "[[runners]]\nurl = \"https://a\"\ntoken = \"t\"\nid = \"7\"\n", "config.toml");
  CHECK(result.errors ==
        std::vector<std::string>{"config.toml:4: runners[0].id: expected an integer"});
}

TEST_CASE("TOML that does not parse names file, line and column, not the token",
          "[gitlab_runner][runner_config]") {
  const std::string path = data_directory + "config_broken.toml";
  const gitlab_runner_config_result result = load_gitlab_runner_config(path);
  REQUIRE(result.errors.size() == 1);
  CHECK_THAT(result.errors[0], Catch::StartsWith(path + ":5:"));
  CHECK_THAT(result.errors[0], !Catch::Contains("never-shown"));
  const gitlab_runner_config_result missing =
      load_gitlab_runner_config(data_directory + "none.toml");
  REQUIRE(missing.errors.size() == 1);
  CHECK_THAT(missing.errors[0], Catch::Contains("none.toml: gitlab-runner config"));
}

TEST_CASE("system ids are read as gitlab-runner accepts them", "[gitlab_runner][runner_config]") {
  // commands/internal/configfile/system_id_state.go: strings.TrimSpace, then
  // ^[sr]_[0-9a-zA-Z]{12}$; "s_" ids are hex, "r_" ids random letters and digits.
  const auto accepted = GENERATE(as<std::string>{}, "s_0e6850b2bce1", "r_0123456789ab",
                                 "r_AbCdEfGh1234", "s_0E6850B2BCE1", "r_ZZZZZZZZZZZZ");
  CAPTURE(accepted);
  CHECK(parse_system_id(accepted) == accepted);
  for (const std::string& padded : {accepted + "\n", accepted + "\r\n", " " + accepted + " ",
                                    "\t" + accepted + "\n\n", "\n" + accepted})
    CHECK(parse_system_id(padded) == accepted);
}

TEST_CASE("system ids gitlab-runner refuses are refused", "[gitlab_runner][runner_config]") {
  const auto refused = GENERATE(
      as<std::string>{}, "", "s_0e6850b2bce", "s_0e6850b2bce12", "t_0e6850b2bce1", "S_0e6850b2bce1",
      "s-0e6850b2bce1", "s_0e6850b2bc-1", "s_0e6850 2bce1", "r_AbCdEfGh123\u00e9", "unknown");
  CAPTURE(refused);
  CHECK_FALSE(parse_system_id(refused));
}

TEST_CASE("a system id file of gitlab-runner's fallback kind loads",
          "[gitlab_runner][runner_config]") {
  const auto directory = std::filesystem::temp_directory_path() / "runwarden-system-id-test";
  std::filesystem::create_directories(directory);
  std::ofstream{directory / "config.toml"} << "concurrent = 2\n";
  std::ofstream{directory / ".runner_system_id"} << "  r_AbCdEfGh1234 \n";
  const auto result = load_gitlab_runner_config(directory / "config.toml");
  std::filesystem::remove_all(directory);
  REQUIRE(result.config);
  CHECK(result.config->system_id == "r_AbCdEfGh1234");
  CHECK(result.config->system_id_problem.empty());
}

TEST_CASE("metrics addresses are read as gitlab-runner's listenAddress reads them",
          "[gitlab_runner][runner_config]") {
  CHECK(metrics_url(":9252") == "http://127.0.0.1:9252/metrics");
  CHECK(metrics_url("0.0.0.0:9252") == "http://127.0.0.1:9252/metrics");
  CHECK(metrics_url("[::]:9252") == "http://[::1]:9252/metrics");
  CHECK(metrics_url("10.0.0.5:9000") == "http://10.0.0.5:9000/metrics");
  // A host without a port: DefaultMetricsServerPort.
  CHECK(metrics_url("localhost") == "http://localhost:9252/metrics");
  CHECK(metrics_url("10.0.0.5") == "http://10.0.0.5:9252/metrics");
  CHECK(metrics_url("0.0.0.0") == "http://127.0.0.1:9252/metrics");
  CHECK(metrics_url("[::1]") == "http://[::1]:9252/metrics");
  // What gitlab-runner cannot listen on.
  CHECK_FALSE(metrics_url("host:"));
  CHECK_FALSE(metrics_url("host:92x"));
  CHECK_FALSE(metrics_url("::1"));
  CHECK_FALSE(metrics_url("[::1"));
  CHECK_FALSE(metrics_url("[::1]x"));
}

TEST_CASE("listen_address and shutdown_timeout in config.toml", "[gitlab_runner][runner_config]") {
  const auto read = [](std::string_view text) {
    auto result = parse_gitlab_runner_config(text, "config.toml");
    INFO((result.errors.empty() ? "" : result.errors.front()));
    REQUIRE(result.config);
    return *result.config;
  };
  // An empty listen_address turns the metrics server off in gitlab-runner; not an error.
  CHECK_FALSE(read("listen_address = \"\"\n").listen_address);
  CHECK_FALSE(read("concurrent = 1\n").listen_address);
  CHECK(read("listen_address = \"localhost\"\n").listen_address == "localhost");
  // GetShutdownTimeout: positive seconds, else DefaultShutdownTimeout (30 s).
  CHECK(read("shutdown_timeout = 120\n").shutdown_timeout == std::chrono::seconds{120});
  CHECK(read("concurrent = 1\n").shutdown_timeout == std::chrono::seconds{30});
  CHECK(read("shutdown_timeout = 0\n").shutdown_timeout == std::chrono::seconds{30});
  CHECK(read("shutdown_timeout = -5\n").shutdown_timeout == std::chrono::seconds{30});
  CHECK(read("shutdown_timeout = 315360000\n").shutdown_timeout == std::chrono::seconds{315360000});
  // More seconds than runwarden's nanosecond clocks can add to a deadline (gitlab-runner's
  // own time.Duration wraps past 9223372036): refused, not overflowed into a kill at once.
  CHECK(parse_gitlab_runner_config("shutdown_timeout = 9223372036854775807\n", "config.toml")
            .errors ==
        std::vector<std::string>{"config.toml:1: shutdown_timeout: 9223372036854775807 seconds is "
                                 "longer than runwarden can time: at most 87600h (ten years)"});
  const auto wrong = parse_gitlab_runner_config("shutdown_timeout = \"30s\"\n", "config.toml");
  CHECK(wrong.errors ==
        std::vector<std::string>{"config.toml:1: shutdown_timeout: expected an integer (seconds)"});
}

TEST_CASE("a secret moves and copies without leaving its text behind", "[runner_config]") {
  secret_text original{std::string(40, 't')};
  const secret_text copy = original;
  secret_text moved = std::move(original);
  CHECK(moved.reveal() == std::string(40, 't'));
  CHECK(copy.reveal() == moved.reveal());
  CHECK(original.empty());  // NOLINT(bugprone-use-after-move): the wipe is what is tested
}
