// runwarden is a child subreaper: a process the runner double-forks and abandons must be
// re-parented to runwarden, not to init, and reaped when it exits, or zombies pile up in a
// container whose init is runwarden. The demo runner leaves one such orphan and reports its
// pid; the test reads /proc/PID/stat while the orphan sleeps (its parent must be runwarden),
// then waits (bounded) until the orphan is gone rather than a zombie runwarden never reaped,
// and checks that reaping it was not mistaken for the runner's own exit.

// Failure messages print the exit code runwarden gave, not "{?}".
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER

#include <catch2/catch.hpp>
#include <csignal>
#include <string>

#include "tests/integration/process_harness.hpp"

namespace {

using namespace runwarden_test;
using namespace std::chrono_literals;

}  // namespace

TEST_CASE("an orphaned grandchild is adopted and reaped", "[process][orphan]") {
  temp_dir dir;
  warden_process warden{dir,
                        run_args({"--kind", "gitlab"},
                                 demo_command(dir, {"--concurrency", "0", "--spawn-orphan", "5"}))};
  const demo_report report{dir.report_path()};
  REQUIRE(eventually([&] { return !report.orphans().empty(); }));
  const pid_t orphan = report.orphans().front();
  // The orphan sleeps five seconds, so this read finds it alive even on a loaded machine.
  const auto while_asleep = read_proc_stat(orphan);
  INFO("orphan " << orphan << "\nreport:\n"
                 << report.text() << "runwarden stderr:\n"
                 << warden.stderr_text());
  REQUIRE(while_asleep);
  CHECK(while_asleep->ppid == warden.pid());
  CHECK(while_asleep->state != 'Z');
  // Gone from /proc once reaped; a pid reused since then belongs to someone else.
  const bool reaped = eventually(
      [&] {
        const auto stat = read_proc_stat(orphan);
        return !stat || stat->ppid != warden.pid();
      },
      15s);
  const auto last_seen = read_proc_stat(orphan);
  INFO("orphan state at the end: " << (last_seen ? std::string(1, last_seen->state) : "gone"));
  CHECK(reaped);
  // Reaping the orphan must not look like the runner exiting.
  CHECK(warden.running());
  CHECK(report.count_starting_with("exit ") == 0);
  warden.send_signal(SIGTERM);
  CHECK(warden.wait_exit() == 0);
  CHECK(report.starts().size() == 1);
}
