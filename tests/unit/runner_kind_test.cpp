// Runner kinds are a table; these tests pin each row's signals, since a wrong signal would
// abort a gitlab-runner's jobs instead of draining them, and the guess from the command.

#include "src/runner/runner_kind.hpp"

#include <catch2/catch.hpp>
#include <csignal>

using runwarden::runner_kind_name;

TEST_CASE("gitlab drains on SIGQUIT and aborts on SIGTERM, fixed", "[runner_kind]") {
  const runwarden::runner_kind& kind = runwarden::kind_of(runner_kind_name::gitlab);
  CHECK(kind.name == runner_kind_name::gitlab);
  CHECK(kind.text == "gitlab");
  CHECK(kind.graceful_signal == SIGQUIT);
  CHECK(kind.forceful_signal == SIGTERM);
  CHECK_FALSE(kind.signals_configurable);
}

TEST_CASE("generic stops with SIGTERM then SIGKILL, configurable", "[runner_kind]") {
  const runwarden::runner_kind& kind = runwarden::kind_of(runner_kind_name::generic);
  CHECK(kind.name == runner_kind_name::generic);
  CHECK(kind.text == "generic");
  CHECK(kind.graceful_signal == SIGTERM);
  CHECK(kind.forceful_signal == SIGKILL);
  CHECK(kind.signals_configurable);
}

TEST_CASE("known_runner_kinds lists each kind once, and each parses", "[runner_kind]") {
  const auto kinds = runwarden::known_runner_kinds();
  REQUIRE(kinds.size() == 2);
  for (const runwarden::runner_kind& kind : kinds) {
    CAPTURE(kind.text);
    CHECK(runwarden::parse_runner_kind(kind.text) == kind.name);
    CHECK(&runwarden::kind_of(kind.name) == &kind);
  }
  CHECK(kinds[0].name != kinds[1].name);
}

TEST_CASE("parse_runner_kind takes the exact lowercase words only", "[runner_kind]") {
  CHECK(runwarden::parse_runner_kind("gitlab") == runner_kind_name::gitlab);
  CHECK(runwarden::parse_runner_kind("generic") == runner_kind_name::generic);
  CHECK_FALSE(runwarden::parse_runner_kind("GitLab").has_value());
  CHECK_FALSE(runwarden::parse_runner_kind("gitlab-runner").has_value());
  CHECK_FALSE(runwarden::parse_runner_kind("").has_value());
  CHECK_FALSE(runwarden::parse_runner_kind("github").has_value());
}

TEST_CASE("guess_runner_kind looks at the executable's basename", "[runner_kind]") {
  CHECK(runwarden::guess_runner_kind("gitlab-runner") == runner_kind_name::gitlab);
  CHECK(runwarden::guess_runner_kind("/usr/bin/gitlab-runner") == runner_kind_name::gitlab);
  CHECK(runwarden::guess_runner_kind("./gitlab-runner") == runner_kind_name::gitlab);
  CHECK(runwarden::guess_runner_kind("/opt/gitlab-runner/bin/gitlab-runner") ==
        runner_kind_name::gitlab);
  CHECK(runwarden::guess_runner_kind("/opt/gitlab-runner/bin/run.sh") == runner_kind_name::generic);
  CHECK(runwarden::guess_runner_kind("gitlab-runner-helper") == runner_kind_name::generic);
  CHECK(runwarden::guess_runner_kind("my-gitlab-runner") == runner_kind_name::generic);
  CHECK(runwarden::guess_runner_kind("/actions-runner/run.sh") == runner_kind_name::generic);
  CHECK(runwarden::guess_runner_kind("") == runner_kind_name::generic);
}
