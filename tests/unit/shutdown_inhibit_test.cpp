// When the logind delay lock for shutdown is held, decided by shutdown_inhibit from
// snapshots built by hand: each case feeds a sequence and compares the whole list of changes
// it gives, so a take or release given twice, too early or not at all fails.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "src/telemetry/shutdown_inhibit.hpp"

namespace {

using namespace runwarden;

warden_snapshot seen(warden_status status, std::optional<std::uint32_t> jobs,
                     drain_phase phase = drain_phase::none) {
  warden_snapshot snapshot;
  snapshot.status = status;
  snapshot.jobs_running = jobs;
  snapshot.phase = phase;
  return snapshot;
}

// The changes, "take" or "release", that the snapshots give in order.
std::vector<std::string> changes_for(const std::vector<warden_snapshot>& snapshots) {
  shutdown_inhibit_state state;
  std::vector<std::string> changes;
  for (const auto& snapshot : snapshots)
    if (const auto change = follow_snapshot(state, snapshot))
      changes.push_back(*change == inhibitor_change::take ? "take" : "release");
  return changes;
}

constexpr auto running = warden_status::running;
constexpr auto shutting_down = warden_status::shutting_down;

}  // namespace

TEST_CASE("the lock is held while jobs run and released when they are done", "[shutdown_inhibit]") {
  const auto changes =
      changes_for({seen(warden_status::starting, std::nullopt), seen(running, 0), seen(running, 2),
                   seen(running, 1), seen(running, 0), seen(running, 0), seen(running, 3)});
  CHECK(changes == std::vector<std::string>{"take", "release", "take"});
}

TEST_CASE("unknown jobs change nothing", "[shutdown_inhibit]") {
  CHECK(changes_for({seen(running, 2), seen(running, std::nullopt), seen(running, 2)}) ==
        std::vector<std::string>{"take"});
  CHECK(changes_for({seen(running, std::nullopt)}).empty());
}

TEST_CASE("a drain holds the lock while the runner finishes its jobs, not past it",
          "[shutdown_inhibit]") {
  const auto changes = changes_for({
      seen(running, 2),
      seen(shutting_down, 2, drain_phase::draining),
      seen(shutting_down, 1, drain_phase::forcing),
      seen(shutting_down, 1, drain_phase::unregistering),  // the runner is gone
      seen(shutting_down, 1, drain_phase::completing),
      seen(warden_status::gone, 1, drain_phase::done),
  });
  CHECK(changes == std::vector<std::string>{"take", "release"});
}

TEST_CASE("a warden gone with jobs still counted releases the lock", "[shutdown_inhibit]") {
  CHECK(changes_for({seen(running, 1), seen(warden_status::gone, 1, drain_phase::done)}) ==
        std::vector<std::string>{"take", "release"});
  CHECK(changes_for({seen(warden_status::gone, 4, drain_phase::done)}).empty());
}

TEST_CASE("the runner may run jobs until the drain is past it", "[shutdown_inhibit]") {
  CHECK(runner_may_run_jobs(seen(running, 0)));
  CHECK(runner_may_run_jobs(seen(shutting_down, 0, drain_phase::waiting_for_runner)));
  CHECK(runner_may_run_jobs(seen(shutting_down, 0, drain_phase::killing)));
  CHECK_FALSE(runner_may_run_jobs(seen(shutting_down, 0, drain_phase::unregistering)));
  CHECK_FALSE(runner_may_run_jobs(seen(warden_status::gone, 0, drain_phase::done)));
}
