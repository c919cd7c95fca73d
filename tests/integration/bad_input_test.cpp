// Mistakes on the command line and in the config file, made against the real binary: each
// case runs runwarden to its exit (bounded) and checks the exit code (64 usage, 78 config,
// 127 command not found, as sysexits and the shell define them) and that stderr names the
// problem. Where a runner command is given, it is the demo runner with a report file, so
// the test can also check that a rejected invocation never started the runner.

// Failure messages print the exit code runwarden gave, not "{?}".
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;

struct finished_run {
  std::optional<int> code;
  std::string out;
  std::string err;
};

finished_run run_to_exit(const temp_dir& dir, const std::vector<std::string>& args) {
  warden_process warden{dir, args};
  const auto code = warden.wait_exit();
  return finished_run{code, warden.stdout_text(), warden.stderr_text()};
}

bool runner_started(const temp_dir& dir) { return std::filesystem::exists(dir.report_path()); }

}  // namespace

TEST_CASE("no runner command is a usage error", "[process][input]") {
  const auto args = GENERATE(std::vector<std::string>{"run"}, std::vector<std::string>{"run", "--"},
                             std::vector<std::string>{"run", "--kind", "gitlab", "--"});
  CAPTURE(args);
  temp_dir dir;
  const auto run = run_to_exit(dir, args);
  INFO("stderr:\n" << run.err);
  CHECK(run.code == 64);
  CHECK(contains(run.err, "no runner command"));
}

TEST_CASE("a missing runner binary exits 127 and names it", "[process][input]") {
  const auto [command, restart] =
      GENERATE(std::pair{std::string{"/nonexistent-runwarden-dir/runner"}, "transient"},
               std::pair{std::string{"runwarden-no-such-runner"}, "permanent"});
  CAPTURE(command, restart);
  temp_dir dir;
  const auto run = run_to_exit(dir, run_args({"--restart", restart}, {command, "--flag"}));
  INFO("stderr:\n" << run.err);
  // Not restarted over and over, whatever the policy: a missing binary stays missing.
  CHECK(run.code == 127);
  CHECK(contains(run.err, command));
  CHECK(contains(run.err, "No such file or directory"));
}

TEST_CASE("unknown flags and bad flag values are usage errors", "[process][input]") {
  const auto flags = GENERATE(std::vector<std::string>{"--no-such-flag"},
                              std::vector<std::string>{"--restart", "sometimes"},
                              std::vector<std::string>{"--kind", "jenkins"},
                              std::vector<std::string>{"--drain-timeout", "soon"});
  CAPTURE(flags);
  temp_dir dir;
  const auto run = run_to_exit(dir, run_args(flags, demo_command(dir, {"--concurrency", "0"})));
  INFO("stderr:\n" << run.err);
  CHECK(run.code == 64);
  CHECK(contains(run.err, flags.back().substr(flags.back().find_first_not_of('-'))));
  CHECK_FALSE(runner_started(dir));
}

TEST_CASE("a config file that does not exist is a usage error", "[process][input]") {
  temp_dir dir;
  const auto missing = dir.file("absent.toml").string();
  const auto run =
      run_to_exit(dir, run_args({"--config", missing}, demo_command(dir, {"--concurrency", "0"})));
  INFO("stderr:\n" << run.err);
  CHECK(run.code == 64);
  CHECK(contains(run.err, "absent.toml"));
  CHECK_FALSE(runner_started(dir));
}

TEST_CASE("an invalid config file names the key and the line", "[process][input]") {
  temp_dir dir;
  const auto config = dir.file("runwarden.toml");
  write_text(config, "# a comment on line 1\n[runner]\nkidn = \"x\"\n");
  const auto run = run_to_exit(
      dir, run_args({"--config", config.string()}, demo_command(dir, {"--concurrency", "0"})));
  INFO("stderr:\n" << run.err);
  CHECK(run.code == 78);
  CHECK(contains(run.err, "runner.kidn"));
  CHECK(contains(run.err, "unknown key"));
  // The file and line, as a compiler would print them.
  CHECK(contains(run.err, config.string() + ":3:"));
  CHECK_FALSE(runner_started(dir));
}

TEST_CASE("an unreadable config file is an error", "[process][input]") {
  if (::geteuid() == 0) {
    WARN("skipped: running as root, so file permissions do not stop reading");
    return;
  }
  temp_dir dir;
  const auto config = dir.file("runwarden.toml");
  write_text(config, "[runner]\nkind = \"gitlab\"\n");
  REQUIRE(::chmod(config.c_str(), 0) == 0);
  const auto run = run_to_exit(
      dir, run_args({"--config", config.string()}, demo_command(dir, {"--concurrency", "0"})));
  INFO("stderr:\n" << run.err);
  CHECK(run.code == 78);
  CHECK(contains(run.err, config.string()));
  CHECK_FALSE(runner_started(dir));
}

TEST_CASE("a sim seed that is not a uint64 is a usage error, never another seed",
          "[process][input]") {
  const auto [flag, value] =
      GENERATE(std::pair{"--seed", "-1"}, std::pair{"--seed", "18446744073709551616"},
               std::pair{"--seeds", "1..18446744073709551616"}, std::pair{"--seeds", "5..1"});
  CAPTURE(flag, value);
  temp_dir dir;
  const auto run = run_to_exit(dir, {"sim", RUNWARDEN_SCENARIO_DIR "/gcp-mig.toml", flag, value});
  INFO("stdout:\n" << run.out << "stderr:\n" << run.err);
  CHECK(run.code == 64);
  CHECK(contains(run.err, std::string{flag} + " wants"));
  CHECK(contains(run.err, "\"" + std::string{value} + "\""));
  CHECK(run.out.empty());
}

// The range's end may be the largest seed: the run stops there instead of wrapping to 0.
TEST_CASE("a sim seed range ending at the largest seed ends", "[process][input]") {
  temp_dir dir;
  const auto run = run_to_exit(dir, {"sim", RUNWARDEN_SCENARIO_DIR "/gcp-mig.toml", "--seeds",
                                     "18446744073709551614..18446744073709551615"});
  INFO("stdout:\n" << run.out << "stderr:\n" << run.err);
  CHECK(run.code.has_value());
  CHECK(contains(run.out, "seed 18446744073709551614:"));
  CHECK(contains(run.out, "seed 18446744073709551615:"));
  CHECK_FALSE(contains(run.out, "seed 0:"));
  CHECK(contains(run.out, "2 seeds, "));
}

TEST_CASE("runwarden version prints a version", "[process][input]") {
  temp_dir dir;
  const auto run = run_to_exit(dir, {"version"});
  INFO("stdout:\n" << run.out << "stderr:\n" << run.err);
  CHECK(run.code == 0);
  CHECK(std::regex_match(run.out, std::regex{R"(runwarden \d+\.\d+\.\d+\S*\n)"}));
}

TEST_CASE("a webhook URL in argv is warned about as public, and --webhook-file keeps it out",
          "[process][input][secrets]") {
  // Both name a metadata address in an IPv6 spelling, refused at start (exit 78) before
  // any connection or runner: that also proves the file's URL is the one used.
  temp_dir dir;
  const auto url_file = dir.file("webhook-url");
  write_text(url_file, "http://[64:ff9b::a9fe:a9fe]/hook\n");
  const auto from_file =
      run_to_exit(dir, run_args({"--webhook-file", url_file.string()}, demo_command(dir, {})));
  INFO("stderr (file):\n" << from_file.err);
  CHECK(from_file.code == 78);
  CHECK(contains(from_file.err, "link-local or instance metadata"));
  CHECK_FALSE(contains(from_file.err, "on the command line"));
  CHECK_FALSE(runner_started(dir));

  const auto in_argv =
      run_to_exit(dir, run_args({"--webhook", "http://[::a9fe:a9fe]/hook"}, demo_command(dir, {})));
  INFO("stderr (argv):\n" << in_argv.err);
  CHECK(in_argv.code == 78);
  CHECK(contains(in_argv.err, "warning: --webhook puts the URL on the command line"));
  CHECK(contains(in_argv.err, "--webhook-file"));
  CHECK_FALSE(runner_started(dir));

  const auto both = run_to_exit(
      dir, run_args({"--webhook", "http://127.0.0.1:9/", "--webhook-file", url_file.string()},
                    demo_command(dir, {})));
  CHECK(both.code == 64);
  CHECK(contains(both.err, "exclude each other"));
}
