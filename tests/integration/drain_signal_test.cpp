// Draining with real signals: each test starts runwarden on the demo runner, waits (bounded)
// until the report shows the jobs running, signals runwarden as an operator or a service
// manager would, and then reads the report for what the runner received and did, in order.
// Durations are measured around the signal and compared with the job length or the drain
// and kill timeouts, so that "waited for the jobs" and "killed at the deadline" are told
// apart from an immediate kill. A second signal is only sent once the report shows the
// first one arrived, because two signals sent close together may merge into one.

// Failure messages print the exit code runwarden gave, not "{?}".
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;
using namespace std::chrono_literals;

std::string describe(const warden_process& warden, const demo_report& report) {
  return "report:\n" + report.text() + "runwarden stderr:\n" + warden.stderr_text();
}

// Two jobs of two seconds each start at once; `operator_signal` asks for a drain while they
// run, and the drain must wait for both and end with exit code 0.
void check_graceful_drain(int operator_signal) {
  temp_dir dir;
  warden_process warden{
      dir, run_args({"--kind", "gitlab"}, demo_command(dir, {"--concurrency", "2", "--job-interval",
                                                             "0", "--job-seconds", "2"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(report.wait_for("job_started 2"));
  warden.send_signal(operator_signal);
  const auto code = warden.wait_exit();
  const auto exited_at = test_clock::now();
  INFO(describe(warden, report));
  REQUIRE(code);
  CHECK(*code == 0);
  const auto quit_at = report.index_of("signal SIGQUIT");
  REQUIRE(quit_at);
  CHECK(report.count_starting_with("signal ") == 1);
  CHECK(report.count_starting_with("job_started ") == 2);
  CHECK(report.count_starting_with("job_aborted ") == 0);
  CHECK(report.index_of("job_finished 1") > quit_at);
  CHECK(report.index_of("job_finished 2") > quit_at);
  CHECK(report.lines().back() == "exit 0");
  // The jobs started after runwarden did and last two seconds, so no correct run is
  // quicker. (How long after the signal it ended is not asked: a test descheduled on a
  // loaded machine may signal late; the report above orders the jobs' ends after it.)
  CHECK(exited_at - warden.started_at() >= 2s);
}

}  // namespace

TEST_CASE("SIGTERM drains gracefully and waits for the jobs", "[process][drain]") {
  check_graceful_drain(SIGTERM);
}

TEST_CASE("SIGINT drains gracefully and waits for the jobs", "[process][drain]") {
  check_graceful_drain(SIGINT);
}

TEST_CASE("SIGQUIT drains gracefully and waits for the jobs", "[process][drain]") {
  check_graceful_drain(SIGQUIT);
}

TEST_CASE("a second operator signal aborts the jobs", "[process][drain]") {
  const auto [first, second] =
      GENERATE(std::pair{SIGTERM, SIGTERM}, std::pair{SIGINT, SIGINT}, std::pair{SIGQUIT, SIGTERM});
  CAPTURE(first, second);
  temp_dir dir;
  warden_process warden{
      dir, run_args({"--kind", "gitlab"}, demo_command(dir, {"--concurrency", "2", "--job-interval",
                                                             "0", "--job-seconds", "60"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(report.wait_for("job_started 2"));
  warden.send_signal(first);
  REQUIRE(report.wait_for("signal SIGQUIT"));
  const auto forced_at = test_clock::now();
  warden.send_signal(second);
  const auto code = warden.wait_exit();
  INFO(describe(warden, report));
  REQUIRE(code);
  CHECK(*code == 1);  // The runner's own code for aborted jobs.
  CHECK(test_clock::now() - forced_at < 5s);
  const auto quit_at = report.index_of("signal SIGQUIT");
  CHECK(report.index_of("signal SIGTERM") > quit_at);
  CHECK(report.count_starting_with("signal ") == 2);
  CHECK(report.has("job_aborted 1"));
  CHECK(report.has("job_aborted 2"));
  CHECK(report.count_starting_with("job_finished ") == 0);
  CHECK(report.lines().back() == "exit 1");
}

TEST_CASE("a runner ignoring signals is killed after drain and kill timeouts", "[process][drain]") {
  temp_dir dir;
  warden_process warden{
      dir, run_args({"--kind", "gitlab", "--drain-timeout", "1s", "--kill-timeout", "1s"},
                    demo_command(dir, {"--ignore-signals", "--concurrency", "1", "--job-interval",
                                       "0", "--job-seconds", "60"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(report.wait_for("job_started 1"));
  const auto runner = report.starts().front();
  const auto signalled_at = test_clock::now();
  warden.send_signal(SIGTERM);
  const auto code = warden.wait_exit();
  const auto took = test_clock::now() - signalled_at;
  INFO(describe(warden, report));
  REQUIRE(code);
  CHECK(*code == 128 + SIGKILL);
  // One second of drain, then one second after the forceful signal (less a margin for
  // timer granularity); an immediate kill would take milliseconds.
  CHECK(took >= 1500ms);
  CHECK(took <= 6s);
  const auto quit_at = report.index_of("signal SIGQUIT");
  REQUIRE(quit_at);
  CHECK(report.index_of("signal SIGTERM") > quit_at);
  CHECK(report.count_starting_with("exit ") == 0);  // It never got to exit by itself.
  CHECK_FALSE(read_proc_stat(runner.pid));          // Killed and reaped.
}

TEST_CASE("SIGHUP is forwarded and the runner keeps running", "[process][drain]") {
  temp_dir dir;
  warden_process warden{
      dir, run_args({"--kind", "gitlab"}, demo_command(dir, {"--concurrency", "1", "--job-interval",
                                                             "0.2", "--job-seconds", "0.05"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(report.wait_for("job_started 1"));
  warden.send_signal(SIGHUP);
  REQUIRE(report.wait_for("signal SIGHUP"));
  // Still taking jobs after the reload: a job starts after the signal line.
  const auto hup_at = *report.index_of("signal SIGHUP");
  const bool job_after_hup = eventually([&] {
    const auto lines = report.lines();
    for (std::size_t index = hup_at + 1; index < lines.size(); ++index) {
      if (lines[index].starts_with("job_started ")) return true;
    }
    return false;
  });
  INFO(describe(warden, report));
  CHECK(job_after_hup);
  CHECK(warden.running());
  CHECK(report.count_starting_with("exit ") == 0);
  CHECK(report.count_starting_with("signal ") == 1);
  warden.send_signal(SIGTERM);
  CHECK(warden.wait_exit() == 0);
  CHECK(report.index_of("signal SIGQUIT") > hup_at);
  CHECK(report.starts().size() == 1);
}

TEST_CASE("generic kind sends its configured graceful signal", "[process][drain]") {
  const auto [flags, expected_signal] = GENERATE(
      std::pair{std::vector<std::string>{"--kind", "generic", "--graceful-signal", "SIGINT"},
                std::string{"SIGINT"}},
      std::pair{std::vector<std::string>{"--kind", "generic"}, std::string{"SIGTERM"}});
  CAPTURE(flags, expected_signal);
  temp_dir dir;
  warden_process warden{
      dir, run_args(flags, demo_command(dir, {"--concurrency", "1", "--job-interval", "0",
                                              "--job-seconds", "60"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(report.wait_for("job_started 1"));
  warden.send_signal(SIGTERM);
  const auto code = warden.wait_exit();
  INFO(describe(warden, report));
  REQUIRE(code);
  // The demo runner takes SIGINT and SIGTERM as "abort", so the job is aborted and the
  // runner's exit code 1 comes through.
  CHECK(*code == 1);
  CHECK(report.count_starting_with("signal ") == 1);
  CHECK(report.has("signal " + expected_signal));
  CHECK(report.has("job_aborted 1"));
  CHECK(report.lines().back() == "exit 1");
}
