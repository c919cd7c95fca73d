// How runwarden starts its runner, seen from inside the runner: the demo runner reports
// every passthrough argument as hex and its own pid, process group and parent, and the
// tests compare those with what they asked for and with runwarden's pid. Arguments are
// chosen to break any quoting, splitting, flag parsing or text decoding on the way.

// Failure messages print the exit code runwarden gave, not "{?}".
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <string>
#include <vector>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;

std::string hex_of(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    hex.push_back(digits[byte >> 4]);
    hex.push_back(digits[byte & 0x0f]);
  }
  return hex;
}

}  // namespace

TEST_CASE("runner arguments arrive byte for byte", "[process][launch]") {
  const std::vector<std::string> passthrough{"a b",       "",       "ünïcode ✓", "'q'",
                                             "\"dq\"",    "--",     "-x",        "tab\there",
                                             "new\nline", "--help", "$HOME",     "*"};
  temp_dir dir;
  std::vector<std::string> options{"--concurrency", "0", "--exit-code", "0", "--"};
  options.insert(options.end(), passthrough.begin(), passthrough.end());
  warden_process warden{dir, run_args({"--restart", "temporary"}, demo_command(dir, options))};
  const auto code = warden.wait_exit();
  const demo_report report{dir.report_path()};
  INFO("report:\n" << report.text() << "runwarden stderr:\n" << warden.stderr_text());
  REQUIRE(code == 0);
  std::vector<std::string> expected{"argc " + std::to_string(passthrough.size())};
  for (std::size_t index = 0; index < passthrough.size(); ++index)
    expected.push_back("arg " + std::to_string(index) + " " + hex_of(passthrough[index]));
  const auto lines = report.lines();
  REQUIRE(lines.size() > expected.size());
  CHECK(std::vector<std::string>(lines.begin(),
                                 lines.begin() + static_cast<long>(expected.size())) == expected);
  CHECK(report.starts().size() == 1);
}

TEST_CASE("runner runs in its own process group as runwarden's child", "[process][launch]") {
  temp_dir dir;
  warden_process warden{dir,
                        run_args({"--kind", "gitlab"}, demo_command(dir, {"--concurrency", "0"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(eventually([&] { return !report.starts().empty(); }));
  const runner_start start = report.starts().front();
  const pid_t warden_group = ::getpgid(warden.pid());
  INFO("report:\n" << report.text() << "runwarden stderr:\n" << warden.stderr_text());
  CHECK(start.pgid == start.pid);
  CHECK(start.pgid != warden_group);
  CHECK(start.pgid != ::getpgrp());
  CHECK(start.ppid == warden.pid());
  // The kernel agrees with what the runner reported about itself.
  const auto stat = read_proc_stat(start.pid);
  REQUIRE(stat);
  CHECK(stat->pgrp == start.pid);
  CHECK(stat->ppid == warden.pid());
  warden.send_signal(SIGTERM);
  CHECK(warden.wait_exit() == 0);
}
