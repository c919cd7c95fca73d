// The STATUS= texts a person reads in `systemctl status` while a drain waits on something
// with a clock: the lifecycle hook's next heartbeat, and the next unregistration attempt.
// Snapshots come from a real drain machine where the machine knows the time (heartbeats),
// and from the warden's progress fields otherwise (attempts are the unregistrar's). The wall
// clock reads 13:00:00 UTC at the machine's time zero.
#include <catch2/catch.hpp>

#include "src/drain/warden_snapshot.hpp"
#include "src/telemetry/service_notices.hpp"
#include "tests/unit/machine_under_test.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

// 2026-11-25T13:00:00Z.
constexpr auto wall_at_zero = std::chrono::system_clock::time_point{1795611600s};

}  // namespace

TEST_CASE("a draining status counts down to the hook's next heartbeat") {
  machine_under_test m;
  m.start_running();
  m.at(0s, runner_load_observed{3u});
  m.at(10s, lifecycle_action_pending{lifecycle_action{
                .hook_name = "drain-hook", .heartbeat_timeout = 100s, .expires_at = 3610s}});
  m.at(20s, runner_load_observed{2u});
  const service_notice_facts facts{.unregister_host = "gitlab.example.com"};
  // The heartbeat is due at 60 s; the deadline is the hook's expiry less the wind-down's
  // reserve (14:00 UTC less one minute).
  CHECK(status_text(facts, snapshot_of(m.state(), 20s, 1), wall_at_zero + 20s) ==
        "draining: 2 jobs left, deadline 13:59 UTC, hook heartbeat in 40s");
  CHECK(status_text(facts, snapshot_of(m.state(), 59500ms, 2), wall_at_zero + 59500ms) ==
        "draining: 2 jobs left, deadline 13:59 UTC, hook heartbeat in 1s");
  m.at(60s, timer_fired{timer_kind::lifecycle_heartbeat, 2});
  CHECK(status_text(facts, snapshot_of(m.state(), 60s, 3), wall_at_zero + 60s) ==
        "draining: 2 jobs left, deadline 13:59 UTC, hook heartbeat in 50s");
}

TEST_CASE("an unregistering status names the attempt and the wait for the next") {
  warden_snapshot snapshot;
  snapshot.status = warden_status::shutting_down;
  snapshot.phase = drain_phase::unregistering;
  snapshot.now = 100s;
  const service_notice_facts facts{.unregister_host = "gitlab.example.com"};
  CHECK(status_text(facts, snapshot, wall_at_zero) == "unregistering from gitlab.example.com");
  snapshot.unregistration_attempts = 4;
  snapshot.next_unregistration_at = 130s;
  CHECK(status_text(facts, snapshot, wall_at_zero) ==
        "unregistering from gitlab.example.com: attempt 4, next in 30s");
  snapshot.next_unregistration_at = 225s;
  CHECK(status_text(facts, snapshot, wall_at_zero) ==
        "unregistering from gitlab.example.com: attempt 4, next in 2m5s");
  snapshot.next_unregistration_at.reset();  // the fifth attempt is under way
  CHECK(status_text({}, snapshot, wall_at_zero) == "unregistering from the CI server: attempt 4");
}
