// The [unregister] tables through the config reader's text form: good documents give the
// settings, bad ones give exactly the errors named (file, line, key), and a plan built from
// settings reads the token files, refusing what cannot work. The shipped example must give
// the defaults, which is also what an empty file gives.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "src/config/config_file.hpp"
#include "src/unregister/unregister_plan.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

std::vector<std::string> errors_of(const std::string& text) {
  return parse_config_text(text, "test.toml").errors;
}

settings settings_of(const std::string& text) {
  const config_result result = parse_config_text(text, "test.toml");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  return *result.config;
}

class scratch_files {
 public:
  scratch_files()
      : dir_(std::filesystem::temp_directory_path() /
             ("runwarden-unregister-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~scratch_files() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream{dir_ / name} << text;
    return (dir_ / name).string();
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

TEST_CASE("unregister defaults: none, forever, from the shipped file too", "[config][unregister]") {
  const config_result shipped =
      load_config_file(RUNWARDEN_TEST_DATA_DIR "/../../config/runwarden.toml");
  REQUIRE(shipped.config);
  for (const settings& loaded : {settings_of(""), *shipped.config}) {
    const unregister_settings defaults;
    CHECK(loaded.unregister.kind == unregister_kind::none);
    CHECK(loaded.unregister.timeout == defaults.timeout);
    CHECK(loaded.unregister.retry_initial == 1s);
    CHECK(loaded.unregister.retry_max == 5min);
    CHECK(loaded.unregister.attempts_max == 0);
    CHECK(loaded.unregister.github.api_url == "https://api.github.com");
  }
}

TEST_CASE("unregister keys take their good values", "[config][unregister]") {
  const auto gitlab = settings_of(
      "[unregister]\nkind = \"gitlab\"\ntimeout = \"5s\"\nretry_initial = \"2s\"\n"
      "retry_max = \"1m\"\nattempts_max = 10\n[unregister.gitlab]\n"
      "url = \"https://gitlab.example.com\"\ntoken_file = \"/t\"\nsystem_id_file = \"/s\"\n"
      "name = \"build-1\"\n");
  CHECK(gitlab.unregister.kind == unregister_kind::gitlab);
  CHECK(gitlab.unregister.timeout == 5s);
  CHECK(gitlab.unregister.retry_initial == 2s);
  CHECK(gitlab.unregister.retry_max == 1min);
  CHECK(gitlab.unregister.attempts_max == 10);
  CHECK(gitlab.unregister.gitlab.url == "https://gitlab.example.com");
  CHECK(gitlab.unregister.gitlab.token_file == "/t");
  CHECK(gitlab.unregister.gitlab.system_id_file == "/s");
  CHECK(gitlab.unregister.gitlab.name == "build-1");
  // The hook: no url and token_file means gitlab-runner's config.toml.
  CHECK(settings_of("[unregister]\nkind = \"gitlab\"\n").unregister.gitlab.url.empty());
  const auto github = settings_of(
      "[unregister]\nkind = \"github\"\n[unregister.github]\n"
      "api_url = \"https://ghe.example.com/api/v3\"\nscope = \"org\"\norg = \"acme\"\n"
      "runner_name = \"box\"\ntoken_file = \"/g\"\n");
  CHECK(github.unregister.github.scope == github_scope::org);
  CHECK(github.unregister.github.org == "acme");
  CHECK(github.unregister.github.api_url == "https://ghe.example.com/api/v3");
  CHECK(settings_of("[unregister]\nkind = \"github\"\n[unregister.github]\nscope = "
                    "\"enterprise\"\nenterprise = \"e\"\nrunner_name = \"r\"\ntoken_file = "
                    "\"/g\"\n")
            .unregister.github.scope == github_scope::enterprise);
}

TEST_CASE("unregister keys refuse bad values and bad combinations", "[config][unregister]") {
  struct row {
    std::string text;
    std::vector<std::string> errors;
  };
  const row rows[] = {
      {"[unregister]\nkind = \"gitea\"",
       {"test.toml:2: unregister.kind: unknown value \"gitea\" (expected \"none\", \"gitlab\" or "
        "\"github\")"}},
      {"[unregister]\ntimeout = \"0s\"",
       {"test.toml:2: unregister.timeout: must be greater than zero (each request needs time "
        "to connect)"}},
      {"[unregister]\nattempts_max = -1",
       {"test.toml:2: unregister.attempts_max: -1 is not between 0 and 4294967295"}},
      {"[unregister]\nretry_initial = \"10m\"",
       {"test.toml:2: unregister.retry_initial: 10m is longer than unregister.retry_max (5m)"}},
      {"[unregister]\nkind = \"gitlab\"\n[unregister.gitlab]\nurl = \"gitlab.example.com\"",
       {"test.toml:4: unregister.gitlab.url: must start with http:// or https://"}},
      {"[unregister]\nkind = \"gitlab\"\n[unregister.gitlab]\nurl = \"https://g.example\"",
       {"test.toml:4: unregister.gitlab.token_file: is missing (url and token_file go "
        "together; leave both out to use the runners in gitlab-runner's config.toml)"}},
      {"[unregister]\nkind = \"gitlab\"\n[unregister.gitlab]\nsystem_id_file = \"/s\"",
       {"test.toml:4: unregister.gitlab.system_id_file: needs unregister.gitlab.url and "
        "token_file (without them the runners come from gitlab-runner's config.toml)"}},
      {"[unregister]\nkind = \"github\"\n[unregister.gitlab]\nurl = \"https://g.example\"",
       {"test.toml:2: unregister.github.runner_name: is missing (the runner is found by its "
        "name)",
        "test.toml:2: unregister.github.token_file: is missing (GitHub needs a token allowed "
        "to remove the runner)",
        "test.toml:2: unregister.github.owner: is missing (scope \"repo\" names it)",
        "test.toml:2: unregister.github.repo: is missing (scope \"repo\" names it)",
        "test.toml:4: unregister.gitlab.url: is set, but unregister.kind is not \"gitlab\""}},
      {"[unregister.github]\nrunner_name = \"r\"",
       {"test.toml:2: unregister.github.runner_name: is set, but unregister.kind is not "
        "\"github\""}},
      {"[unregister]\nkind = \"github\"\n[unregister.github]\nscope = \"org\"\nrepo = \"w\"\n"
       "runner_name = \"r\"\ntoken_file = \"/g\"",
       {"test.toml:4: unregister.github.org: is missing (scope \"org\" names it)",
        "test.toml:5: unregister.github.repo: is not used with scope = \"org\""}},
      {"[unregister]\nkind = \"github\"\n[unregister.github]\nowner = \"a\"\nrepo = \"a/w\"\n"
       "runner_name = \"r\"\ntoken_file = \"/g\"",
       {"test.toml:5: unregister.github.repo: is the repository's name alone; its owner goes "
        "in unregister.github.owner"}},
      {"[unregister]\nkind = \"github\"\n[unregister.github]\nscope = \"user\"",
       {"test.toml:2: unregister.github.runner_name: is missing (the runner is found by its "
        "name)",
        "test.toml:2: unregister.github.token_file: is missing (GitHub needs a token allowed "
        "to remove the runner)",
        "test.toml:4: unregister.github.scope: unknown value \"user\" (expected \"repo\", "
        "\"org\" or \"enterprise\")"}},
      {"[unregister]\ngitlab = 3",
       {"test.toml:2: unregister.gitlab: expected a table, got integer"}},
      {"[unregister.gitlab]\nulr = \"x\"",
       {"test.toml:2: unregister.gitlab.ulr: unknown key (did you mean unregister.gitlab.url?)"}},
  };
  for (const auto& [text, errors] : rows) {
    CAPTURE(text);
    CHECK(errors_of(text) == errors);
  }
}

TEST_CASE("an unregister plan reads token files and refuses what cannot work",
          "[config][unregister]") {
  scratch_files files;
  unregister_settings settings;
  CHECK(plan_unregistration(settings).plan.targets.empty());
  settings.kind = unregister_kind::gitlab;
  settings.attempts_max = 4;
  CHECK_THAT(plan_unregistration(settings).error,
             Catch::Contains("neither [unregister.gitlab] url and token_file nor gitlab-runner"));
  const std::vector<gitlab_runner> discovered{
      {"a", "https://g.example", "legacy-token", ""},
      {"b", "https://g.example", "glrt-shared", "s_000000000001"}};
  const auto from_discovery = plan_unregistration(settings, discovered);
  REQUIRE(from_discovery.error.empty());
  CHECK(from_discovery.plan.targets.size() == 2);
  CHECK(from_discovery.plan.limits.attempts_max == 4);
  settings.gitlab.url = "https://g.example";
  settings.gitlab.token_file = files.write("token", "glrt-FromFile\n");
  const auto without_id = plan_unregistration(settings);
  CHECK_THAT(without_id.error, Catch::Contains("needs the runner's system id"));
  CHECK(without_id.error.find("glrt-FromFile") == std::string::npos);
  settings.gitlab.system_id_file = files.write("system_id", "s_0123456789ab\n");
  const auto planned = plan_unregistration(settings);
  REQUIRE(planned.error.empty());
  const auto& runner = std::get<gitlab_runner>(planned.plan.targets.at(0));
  CHECK(runner.token == "glrt-FromFile");
  CHECK(runner.system_id == "s_0123456789ab");
  settings.gitlab.token_file = "/nonexistent/token";
  CHECK_THAT(plan_unregistration(settings).error,
             Catch::Contains("unregister.gitlab token file /nonexistent/token"));
  unregister_settings github;
  github.kind = unregister_kind::github;
  github.github.owner = "acme";
  github.github.repo = "widgets";
  github.github.runner_name = "box";
  github.github.token_file = files.write("gh", "ghp_x\n");
  const auto github_plan = plan_unregistration(github);
  REQUIRE(github_plan.error.empty());
  CHECK(std::get<github_runner>(github_plan.plan.targets.at(0)).token == "ghp_x");
}
