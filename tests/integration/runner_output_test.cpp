// What becomes of the runner's stdout and stderr. By default runwarden reads both and logs
// each line on its own stderr, prefixed with the stream and the runner's pid; the tests
// parse every line of runwarden's stderr (against the text pattern, or as JSON with
// --log-format json) and compare the runner's lines, in order, with what the demo runner
// printed. The runner is kept alive until its lines have shown up and then drained, so the
// lines it prints while stopping must be there too. With --output inherit the runner
// writes straight to runwarden's stdout and stderr, which the harness captures as files.

// Failure messages print the exit code runwarden gave, not "{?}".
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;
using namespace std::chrono_literals;

struct runner_line {
  std::string stream;  // "stdout" or "stderr"
  std::string text;
  friend bool operator==(const runner_line&, const runner_line&) = default;
};

// Splits "[stdout 123] text" into its parts when the pid is the runner's.
std::optional<runner_line> parse_runner_message(const std::string& message, pid_t pid) {
  for (const char* stream : {"stdout", "stderr"}) {
    const std::string prefix = "[" + std::string{stream} + " " + std::to_string(pid) + "] ";
    if (message.starts_with(prefix)) return runner_line{stream, message.substr(prefix.size())};
  }
  return std::nullopt;
}

std::vector<runner_line> lines_of(const std::vector<runner_line>& lines, const char* stream) {
  std::vector<runner_line> selected;
  for (const auto& line : lines) {
    if (line.stream == stream) selected.push_back(line);
  }
  return selected;
}

// Runs the demo runner with three stderr lines, waits for its output to be logged, drains
// it, and returns the runner's pid with runwarden's stderr.
std::pair<pid_t, std::string> run_and_drain(const std::vector<std::string>& flags) {
  temp_dir dir;
  warden_process warden{
      dir, run_args(flags, demo_command(dir, {"--concurrency", "0", "--stderr-lines", "3"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(eventually([&] { return !report.starts().empty(); }));
  const pid_t pid = report.starts().front().pid;
  const std::string last = "[stderr " + std::to_string(pid) + "] demo-runner: stderr line 3";
  INFO("runwarden stderr:\n" << warden.stderr_text());
  REQUIRE(warden.wait_for_stderr(last));
  REQUIRE(warden.wait_for_stderr("demo-runner: ready"));
  warden.send_signal(SIGTERM);
  REQUIRE(warden.wait_exit() == 0);
  REQUIRE(report.lines().back() == "exit 0");
  return {pid, warden.stderr_text()};
}

// The lines every run above must have logged, in order per stream.
void check_runner_lines(const std::vector<runner_line>& lines, pid_t pid) {
  const std::vector<runner_line> expected_stderr{{"stderr", "demo-runner: stderr line 1"},
                                                 {"stderr", "demo-runner: stderr line 2"},
                                                 {"stderr", "demo-runner: stderr line 3"}};
  CHECK(lines_of(lines, "stderr") == expected_stderr);
  const auto out = lines_of(lines, "stdout");
  REQUIRE_FALSE(out.empty());
  CHECK(out.front().text == "demo-runner: ready, concurrency 0, pid " + std::to_string(pid));
  // Printed while the runner stops, just before it exits: must not be lost.
  CHECK(out.back().text == "demo-runner: exiting with code 0");
}

}  // namespace

TEST_CASE("runner output is logged line by line in text format", "[process][output]") {
  const auto [pid, log] = run_and_drain({"--kind", "gitlab"});
  INFO("runwarden stderr:\n" << log);
  const std::regex line_pattern{
      R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3} ([a-z]+) +(warden|runner): (.*)$)"};
  std::vector<runner_line> lines;
  for (const auto& line : split_lines(log)) {
    std::smatch match;
    CAPTURE(line);
    REQUIRE(std::regex_match(line, match, line_pattern));
    const auto runner = parse_runner_message(match[3].str(), pid);
    CHECK(runner.has_value() == (match[2] == "runner"));
    if (runner) {
      CHECK(match[1] == "info");
      lines.push_back(*runner);
    }
  }
  check_runner_lines(lines, pid);
}

TEST_CASE("runner output is logged as JSON lines with --log-format json", "[process][output]") {
  const auto [pid, log] = run_and_drain({"--kind", "gitlab", "--log-format", "json"});
  INFO("runwarden stderr:\n" << log);
  const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  std::vector<runner_line> lines;
  for (const auto& line : split_lines(log)) {
    CAPTURE(line);
    nlohmann::json object;
    REQUIRE_NOTHROW(object = nlohmann::json::parse(line));
    REQUIRE(object.is_object());
    REQUIRE(object["time_unix_us"].is_number_integer());
    REQUIRE(object["level"].is_string());
    REQUIRE(object["logger"].is_string());
    REQUIRE(object["msg"].is_string());
    // Real microseconds since the epoch, from this run.
    CHECK(std::abs(object["time_unix_us"].get<std::int64_t>() - now_us) < 120'000'000);
    const auto runner = parse_runner_message(object["msg"].get<std::string>(), pid);
    CHECK((object["logger"] == "runner") == runner.has_value());
    if (runner) lines.push_back(*runner);
  }
  check_runner_lines(lines, pid);
}

TEST_CASE("JSON log lines stay valid whatever bytes the runner prints", "[process][output]") {
  temp_dir dir;
  // Quotes, a backslash, a tab, a control byte and a byte that is not UTF-8; then the shell
  // waits to be stopped, so that the line is logged while it runs.
  warden_process warden{
      dir, run_args({"--log-format", "json"},
                    {"sh", "-c", R"(printf 'odd "q" b\\s t\tx \001 \377 end\n'; exec sleep 30)"})};
  INFO("runwarden stderr:\n" << warden.stderr_text());
  REQUIRE(warden.wait_for_stderr("] odd "));
  warden.send_signal(SIGTERM);
  REQUIRE(warden.wait_exit() == 128 + SIGTERM);
  bool found = false;
  for (const auto& line : split_lines(warden.stderr_text())) {
    CAPTURE(line);
    nlohmann::json object;
    REQUIRE_NOTHROW(object = nlohmann::json::parse(line));
    const auto message = object.value("msg", std::string{});
    if (!contains(message, "] odd ")) continue;
    found = true;
    CHECK(object["logger"] == "runner");
    CHECK(contains(message, "odd \"q\" b\\s t\tx \001 "));
    CHECK(contains(message, " end"));
  }
  CHECK(found);
}

TEST_CASE("output a runner prints just before it exits is all logged", "[process][output]") {
  temp_dir dir;
  warden_process warden{
      dir, run_args({"--restart", "temporary"}, {"sh", "-c",
                                                 "i=0; while [ $i -lt 300 ]; do echo line $i; "
                                                 "echo err $i >&2; i=$((i+1)); done"})};
  REQUIRE(warden.wait_exit() == 0);
  const std::string log = warden.stderr_text();
  INFO("runwarden stderr:\n" << log);
  const std::regex out_pattern{R"(runner: \[stdout \d+\] line (\d+)$)"};
  const std::regex err_pattern{R"(runner: \[stderr \d+\] err (\d+)$)"};
  int out_next = 0;
  int err_next = 0;
  for (const auto& line : split_lines(log)) {
    std::smatch match;
    if (std::regex_search(line, match, out_pattern)) {
      CHECK(std::stoi(match[1]) == out_next);
      ++out_next;
    } else if (std::regex_search(line, match, err_pattern)) {
      CHECK(std::stoi(match[1]) == err_next);
      ++err_next;
    }
  }
  CHECK(out_next == 300);
  CHECK(err_next == 300);
}

TEST_CASE("inherited output: the runner writes to runwarden's own stdout and stderr",
          "[process][output]") {
  temp_dir dir;
  warden_process warden{dir, run_args({"--output", "inherit", "--restart", "temporary"},
                                      demo_command(dir, {"--concurrency", "0", "--stderr-lines",
                                                         "2", "--exit-code", "0"}))};
  const auto code = warden.wait_exit();
  const demo_report report{dir.report_path()};
  const std::string out = warden.stdout_text();
  const std::string err = warden.stderr_text();
  INFO("runwarden stdout:\n" << out << "runwarden stderr:\n" << err);
  REQUIRE(code == 0);
  REQUIRE(report.starts().size() == 1);
  const auto pid = std::to_string(report.starts().front().pid);
  const std::vector<std::string> expected_out{"demo-runner: ready, concurrency 0, pid " + pid,
                                              "demo-runner: exiting with code 0"};
  CHECK(split_lines(out) == expected_out);
  const auto err_lines = split_lines(err);
  CHECK(std::count(err_lines.begin(), err_lines.end(), "demo-runner: stderr line 1") == 1);
  CHECK(std::count(err_lines.begin(), err_lines.end(), "demo-runner: stderr line 2") == 1);
  CHECK_FALSE(contains(err, "[stdout "));
  CHECK_FALSE(contains(err, "[stderr "));
}
