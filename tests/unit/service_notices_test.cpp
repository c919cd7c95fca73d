// What runwarden tells systemd, decided by service_notices from the snapshots of a real
// drain machine stepped through events, as the warden publishes them. Each case compares
// the whole list of lines a snapshot gives, so a line sent twice, too early or not at all
// fails; the wall clock reads 13:00:00 UTC at the machine's time zero.
#include <catch2/catch.hpp>

#include <csignal>
#include <string>
#include <vector>

#include "src/drain/warden_snapshot.hpp"
#include "src/telemetry/service_notices.hpp"
#include "tests/unit/machine_under_test.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

// 2026-11-25T13:00:00Z.
constexpr auto wall_at_zero = std::chrono::system_clock::time_point{1795611600s};

class told_systemd {
 public:
  explicit told_systemd(drain_config config = gitlab_config(),
                        service_notice_facts facts = {.unregister_host = "gitlab.example.com"})
      : machine_(config), facts_(std::move(facts)) {}

  // One event, then the lines the snapshot after it gives.
  lines at(duration now, const drain_event& event) {
    machine_.at(now, event);
    return refresh(now);
  }

  // The snapshot as the warden answers a refresh, with nothing new having happened.
  lines refresh(duration now) {
    const auto snapshot = snapshot_of(machine_.state(), now, ++version_);
    return notices_for(told, facts_, snapshot, wall_at_zero + now);
  }

  service_notice_state told;

 private:
  machine_under_test machine_;
  service_notice_facts facts_;
  std::uint64_t version_ = 0;
};

std::string extend_by(std::chrono::seconds seconds) {
  return "EXTEND_TIMEOUT_USEC=" + std::to_string(std::chrono::microseconds{seconds}.count());
}

drain_config gitlab_unregistering_within(std::chrono::seconds timeout) {
  auto config = gitlab_config();
  config.drain_timeout = timeout;
  config.unregister = true;
  return config;
}

}  // namespace

TEST_CASE("a whole drain: ready once up and listening, stopping, progress, gone") {
  told_systemd systemd{gitlab_unregistering_within(1h)};
  CHECK(systemd.at(0s, warden_started{}) == lines{"STATUS=starting the runner"});
  systemd.told.control_listening = true;
  CHECK(systemd.refresh(0s).empty());
  CHECK(systemd.at(0s, runner_spawned{100}) == lines{"READY=1", "STATUS=running"});
  CHECK(systemd.at(2s, runner_load_observed{3}) == lines{"STATUS=running, 3 jobs"});
  // 13:01 plus the hour of drain.timeout; systemd's stop timeout reaches ten minutes past.
  CHECK(systemd.at(60s, sigterm()) == lines{"STOPPING=1",
                                            "STATUS=draining: 3 jobs left, deadline 14:01 UTC",
                                            extend_by(3600s + 600s)});
  CHECK(systemd.at(70s, runner_load_observed{2}) ==
        lines{"STATUS=draining: 2 jobs left, deadline 14:01 UTC", extend_by(3590s + 600s)});
  CHECK(systemd.at(80s, runner_load_observed{2}).empty());
  CHECK(systemd.at(90s, runner_load_observed{1}) ==
        lines{"STATUS=draining: 1 job left, deadline 14:01 UTC", extend_by(3570s + 600s)});
  CHECK(systemd.at(95s, runner_load_observed{0}) ==
        lines{"STATUS=draining: no jobs left, waiting for the runner to exit, deadline 14:01 UTC",
              extend_by(3565s + 600s)});
  CHECK(systemd.at(100s, exited(100, 0)) ==
        lines{"STATUS=unregistering from gitlab.example.com", extend_by(3560s + 600s)});
  const auto gone = systemd.at(130s, unregistration_finished{});
  REQUIRE(gone.size() == 1);
  CHECK(gone.front().starts_with("STATUS=gone, exit code 0: runner stopped"));
  CHECK(systemd.refresh(131s).empty());
}

TEST_CASE("READY=1 waits for the control API even when the runner is up") {
  told_systemd systemd;
  systemd.at(0s, warden_started{});
  CHECK(systemd.at(0s, runner_spawned{100}) == lines{"STATUS=running"});
  systemd.told.control_listening = true;
  CHECK(systemd.refresh(1s) == lines{"READY=1"});
  CHECK(systemd.refresh(2s).empty());
}

TEST_CASE("without a deadline the stop timeout is extended again once half of it is used") {
  told_systemd systemd;
  systemd.told.control_listening = true;
  systemd.at(0s, warden_started{});
  systemd.at(0s, runner_spawned{100});
  CHECK(systemd.at(10s, sigterm()) ==
        lines{"STOPPING=1", "STATUS=draining: waiting for the runner to finish its jobs and exit",
              extend_by(600s)});
  // Extended until 610 s: renewed only once at most 300 s of it are left.
  CHECK(systemd.refresh(309s).empty());
  CHECK(systemd.refresh(310s) == lines{extend_by(600s)});
  CHECK(systemd.refresh(311s).empty());
}

TEST_CASE("more jobs during a drain are no progress, the forceful stages say what was sent") {
  told_systemd systemd{gitlab_unregistering_within(1min)};
  systemd.told.control_listening = true;
  systemd.at(0s, warden_started{});
  systemd.at(0s, runner_spawned{100});
  systemd.at(1s, runner_load_observed{1});
  systemd.at(10s, sigterm());
  CHECK(systemd.at(20s, runner_load_observed{2}) ==
        lines{"STATUS=draining: 2 jobs left, deadline 13:01 UTC"});
  CHECK(systemd.at(70s, timer_fired{timer_kind::drain_deadline, 1}) ==
        lines{"STATUS=draining: deadline passed, forceful signal sent", extend_by(600s)});
  CHECK(systemd.at(80s, timer_fired{timer_kind::kill_timeout, 2}) ==
        lines{"STATUS=draining: runner did not stop, SIGKILL sent", extend_by(600s)});
}

TEST_CASE("restarts of a failed runner are counted in the running status, with the last exit") {
  told_systemd systemd;
  systemd.told.control_listening = true;
  systemd.at(0s, warden_started{});
  systemd.at(0s, runner_spawned{100});
  systemd.at(1s, runner_load_observed{1});
  // Between runners no job count is shown: a count is a running runner's own.
  CHECK(systemd.at(10s, killed(100, SIGSEGV)) ==
        lines{"STATUS=running, 1 restart (last: killed by SIGSEGV)"});
  CHECK(systemd.at(11s, timer_fired{timer_kind::restart_backoff, 1}).empty());
  CHECK(systemd.at(11s, runner_spawned{101}) ==
        lines{"STATUS=running, 1 job, 1 restart (last: killed by SIGSEGV)"});
  CHECK(systemd.at(20s, exited(101, 3)) == lines{"STATUS=running, 2 restarts (last: exit code 3)"});
}

TEST_CASE(
    "status texts: a deadline on another day shows its date, an unknown host is named "
    "as the CI server, a hook held is named") {
  warden_snapshot snapshot;
  snapshot.status = warden_status::shutting_down;
  snapshot.phase = drain_phase::draining;
  snapshot.now = 0s;
  snapshot.jobs_running = 4;
  snapshot.drain_deadline = 12h;
  snapshot.lifecycle_hook = "drain-runner";
  CHECK(status_text({}, snapshot, wall_at_zero) ==
        "draining: 4 jobs left, deadline 2026-11-26 01:00 UTC, lifecycle hook drain-runner held");
  snapshot.phase = drain_phase::unregistering;
  CHECK(status_text({}, snapshot, wall_at_zero) == "unregistering from the CI server");
  snapshot.phase = drain_phase::completing;
  CHECK(status_text({}, snapshot, wall_at_zero) == "completing lifecycle hook drain-runner");
}
