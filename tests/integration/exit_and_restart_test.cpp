// What runwarden's exit code says and when it starts the runner again. A runner exiting on
// its own with a code, or dying of a signal, must show through as the same code (128 +
// signal, as a shell reports it). Restarts are counted from the report, one `pid` line per
// start of the demo runner; a config file written to the test's directory shortens the
// backoff to milliseconds so that the budget is spent within a second.

// Failure messages print the exit code runwarden gave, not "{?}".
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <set>
#include <string>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;
using namespace std::chrono_literals;

std::string describe(const warden_process& warden, const demo_report& report) {
  return "report:\n" + report.text() + "runwarden stderr:\n" + warden.stderr_text();
}

constexpr std::string_view fast_restart_config =
    "[restart]\n"
    "backoff_initial = \"100ms\"\n"
    "backoff_max = \"200ms\"\n"
    "budget_restarts = 2\n"
    "budget_window = \"1m\"\n";

}  // namespace

TEST_CASE("the runner's exit code is runwarden's", "[process][exit]") {
  const int runner_code = GENERATE(3, 0, 255);
  CAPTURE(runner_code);
  temp_dir dir;
  warden_process warden{dir,
                        run_args({"--restart", "temporary"},
                                 demo_command(dir, {"--exit-code", std::to_string(runner_code)}))};
  const auto code = warden.wait_exit();
  const demo_report report{dir.report_path()};
  INFO(describe(warden, report));
  CHECK(code == runner_code);
  CHECK(report.starts().size() == 1);
  CHECK(report.lines().back() == "exit " + std::to_string(runner_code));
}

TEST_CASE("a runner killed by a signal gives 128 + signal", "[process][exit]") {
  temp_dir dir;
  // No core file: the runner takes SIGSEGV's default action, and a core dump would only
  // slow the test down.
  warden_process warden{
      dir, run_args({"--restart", "temporary"}, {"sh", "-c", "ulimit -c 0; kill -SEGV $$"})};
  const auto code = warden.wait_exit();
  INFO("runwarden stderr:\n" << warden.stderr_text());
  CHECK(code == 128 + SIGSEGV);
}

TEST_CASE("transient restarts a failing runner until the budget is spent", "[process][restart]") {
  temp_dir dir;
  write_text(dir.file("runwarden.toml"), fast_restart_config);
  warden_process warden{
      dir, run_args({"--config", dir.file("runwarden.toml").string(), "--restart", "transient"},
                    demo_command(dir, {"--exit-code", "4"}))};
  const auto code = warden.wait_exit();
  const auto took = test_clock::now() - warden.started_at();
  const demo_report report{dir.report_path()};
  INFO(describe(warden, report));
  CHECK(code == 4);
  const auto starts = report.starts();
  CHECK(starts.size() == 3);  // The first start and two restarts.
  std::set<pid_t> pids;
  for (const auto& start : starts) pids.insert(start.pid);
  CHECK(pids.size() == starts.size());
  CHECK(report.count_starting_with("exit 4") == 3);
  CHECK(contains(warden.stderr_text(), "restart budget is spent"));
  // Backoff of about 100 ms and 200 ms, not the default second.
  CHECK(took < 5s);
}

TEST_CASE("permanent restarts even a runner that exits cleanly", "[process][restart]") {
  temp_dir dir;
  write_text(dir.file("runwarden.toml"), fast_restart_config);
  warden_process warden{
      dir, run_args({"--config", dir.file("runwarden.toml").string(), "--restart", "permanent"},
                    demo_command(dir, {"--exit-code", "0"}))};
  const auto code = warden.wait_exit();
  const demo_report report{dir.report_path()};
  INFO(describe(warden, report));
  REQUIRE(code);
  // A clean exit past the budget is still a failure for whoever supervises runwarden.
  CHECK(*code != 0);
  CHECK(report.starts().size() == 3);
  CHECK(contains(warden.stderr_text(), "restart budget is spent"));
}

TEST_CASE("transient does not restart a runner that exits cleanly", "[process][restart]") {
  temp_dir dir;
  write_text(dir.file("runwarden.toml"), fast_restart_config);
  warden_process warden{dir, run_args({"--config", dir.file("runwarden.toml").string()},
                                      demo_command(dir, {"--exit-code", "0"}))};
  const auto code = warden.wait_exit();
  const demo_report report{dir.report_path()};
  INFO(describe(warden, report));
  CHECK(code == 0);
  CHECK(report.starts().size() == 1);
}
