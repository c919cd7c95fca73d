// The wind-down after the runner: job counts from the runner's metrics, unregistration
// (after the runner, or before it for GitHub's runner), and a lifecycle hook kept alive with
// heartbeats and completed exactly once. Each case lists the exact effects.
#include <catch2/catch.hpp>

#include <algorithm>

#include "src/drain/warden_snapshot.hpp"
#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

namespace {

drain_config unregistering_config() {
  auto config = gitlab_config();
  config.unregister = true;
  return config;
}

lifecycle_action_pending terminate_hook(instant now, duration heartbeat = 300s,
                                        duration global = 30000s) {
  return {lifecycle_action{
      .hook_name = "drain-hook", .heartbeat_timeout = heartbeat, .expires_at = now + global}};
}

bool reported(const machine_under_test& m, const std::string& text) {
  return std::any_of(m.reports().begin(), m.reports().end(),
                     [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("after the runner stops, the drain unregisters it and only then is gone") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(5s, sigterm());
  CHECK(m.at(60s, exited(100, 0)) == lines{"unregister_runner"});
  CHECK(m.state().status == warden_status::shutting_down);
  CHECK(m.at(61s, unregistration_finished{true, "runner a unregistered"}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(snapshot_of(m.state(), 61s, 1).unregistration == "runner a unregistered");
  CHECK(m.state().exit_reason == "runner stopped (exit code 0) 56s after the drain began");
}

TEST_CASE("an unregistration answer nobody waits for changes nothing") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  CHECK(m.at(1s, unregistration_finished{}).empty());
  m.at(5s, sigterm());
  m.at(6s, exited(100, 0));
  m.at(7s, unregistration_finished{});
  CHECK(m.at(8s, unregistration_finished{}).empty());
  CHECK(m.state().status == warden_status::gone);
}

TEST_CASE("a runner that exits without a drain restarts and is not unregistered") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  const auto effects = m.at(5s, exited(100, 1));
  CHECK(std::find(effects.begin(), effects.end(), "unregister_runner") == effects.end());
  CHECK(m.state().runner == runner_state::backing_off);
}

TEST_CASE("GitHub's way: unregister first, signal once the CI server lets the runner go") {
  auto config = gitlab_config();
  config.unregister_before_stop = true;
  machine_under_test m{config};
  m.start_running();
  CHECK(m.at(5s, sigterm()) == lines{"change_status running->shutting_down",
                                     "send_notification drain_started", "unregister_runner"});
  CHECK(m.state().unregistration == step_progress::in_progress);
  CHECK(m.at(300s, unregistration_finished{}) == lines{"signal_runner graceful SIGQUIT pid=100"});
  CHECK(m.at(301s, exited(100, 0)) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("unregistering first still yields to the deadline, and to a forceful request") {
  auto config = gitlab_config();
  config.unregister_before_stop = true;
  config.drain_timeout = 60s;
  machine_under_test m{config};
  m.start_running();
  m.at(0s, sigterm());
  // (id 2: the last unregistration attempt, half a minute before the deadline)
  CHECK(m.at(60s, timer_fired{timer_kind::drain_deadline, 1}) ==
        lines{"signal_runner forceful SIGTERM pid=100", "arm_timer kill_timeout id=3 at=70000ms"});
  // The runner is gone but the CI server has not confirmed yet: the drain waits for it.
  CHECK(m.at(62s, killed(100, SIGTERM)).empty());
  CHECK(m.at(90s, unregistration_finished{}) == lines{"change_status shutting_down->gone",
                                                      "send_notification gone",
                                                      "exit_warden code=143"});

  machine_under_test forced{config};
  forced.start_running();
  CHECK(forced.at(1s, forceful_shutdown_requested{}) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100", "signal_runner forceful SIGTERM pid=100",
              "arm_timer kill_timeout id=1 at=11000ms",
              "arm_timer drain_deadline id=2 at=61000ms"});
  CHECK(forced.at(2s, killed(100, SIGTERM)) ==
        lines{"unregister_runner", "arm_timer unregistration_last_attempt id=3 at=31000ms"});
}

TEST_CASE("a terminate hook starts the drain, heartbeats, and is completed once at the end") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  CHECK(m.at(10s, terminate_hook(10s)) == lines{"arm_timer lifecycle_expiry id=1 at=30010000ms",
                                                "arm_timer lifecycle_heartbeat id=2 at=160000ms",
                                                "change_status running->shutting_down",
                                                "send_notification drain_started",
                                                "signal_runner graceful SIGQUIT pid=100",
                                                "arm_timer drain_deadline id=3 at=29950000ms"});
  CHECK(m.state().drain_trigger == trigger_source::cloud_lifecycle);
  CHECK(m.at(160s, timer_fired{timer_kind::lifecycle_heartbeat, 2}) ==
        lines{"record_lifecycle_heartbeat hook=drain-hook",
              "arm_timer lifecycle_heartbeat id=4 at=310000ms"});
  // The same hook seen again (the watcher polls a level) changes nothing.
  CHECK(m.at(200s, terminate_hook(10s)).empty());
  // One more unregistration attempt is due half a minute before the drain deadline.
  CHECK(m.at(250s, exited(100, 0)) ==
        lines{"unregister_runner", "arm_timer unregistration_last_attempt id=5 at=29920000ms"});
  // Heartbeats go on while the unregistration retries.
  CHECK(m.at(310s, timer_fired{timer_kind::lifecycle_heartbeat, 4}) ==
        lines{"record_lifecycle_heartbeat hook=drain-hook",
              "arm_timer lifecycle_heartbeat id=6 at=460000ms"});
  CHECK(m.at(320s, unregistration_finished{}) ==
        lines{"complete_lifecycle_action hook=drain-hook result=CONTINUE"});
  CHECK(m.at(460s, timer_fired{timer_kind::lifecycle_heartbeat, 6}).empty());
  CHECK(m.at(321s, lifecycle_action_completed{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(m.at(322s, lifecycle_action_completed{}).empty());
}

TEST_CASE("a hook arriving during a drain tightens the deadline to leave room to wind down") {
  auto config = gitlab_config();
  config.drain_timeout = 3600s;
  machine_under_test m{config};
  m.start_running();
  m.at(0s, sigterm());
  CHECK(m.at(100s, terminate_hook(100s, 60s, 600s)) ==
        lines{"arm_timer lifecycle_expiry id=2 at=700000ms",
              "arm_timer lifecycle_heartbeat id=3 at=130000ms",
              "arm_timer drain_deadline id=4 at=640000ms"});
  CHECK(*m.state().drain_deadline == 640s);
}

TEST_CASE("no heartbeat is sent that could only stretch a hook past its global timeout") {
  machine_under_test m;
  m.start_running();
  const auto effects = m.at(0s, terminate_hook(0s, 300s, 100s));
  CHECK(std::none_of(effects.begin(), effects.end(), [](const std::string& line) {
    return line.starts_with("arm_timer lifecycle_heartbeat");
  }));
}

TEST_CASE("a hook that expires first ends the wind-down without a completion") {
  machine_under_test m;
  m.start_running();
  m.at(0s, terminate_hook(0s, 300s, 1000s));
  m.at(100s, exited(100, 0));
  CHECK(m.state().lifecycle_completion == step_progress::in_progress);
  CHECK(m.at(1000s, timer_fired{timer_kind::lifecycle_expiry, 1}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(reported(m, "expired before it was completed"));
  CHECK(m.at(1001s, lifecycle_action_completed{}).empty());
}

TEST_CASE("a completion refused for good is reported and the drain still ends") {
  machine_under_test m;
  m.start_running();
  m.at(0s, terminate_hook(0s));
  CHECK(m.at(5s, exited(100, 0)) ==
        lines{"complete_lifecycle_action hook=drain-hook result=CONTINUE"});
  CHECK(m.at(6s, lifecycle_action_completed{false, "AccessDenied"}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(reported(m, "could not be completed; the cloud will time it out: AccessDenied"));
}

TEST_CASE("the runner's job count is kept, and the last job's end is noticed in a drain") {
  machine_under_test m;
  m.start_running();
  CHECK_FALSE(m.state().jobs_running.has_value());
  CHECK(m.at(1s, runner_load_observed{3u}).empty());
  CHECK(m.state().jobs_running == 3u);
  m.at(5s, sigterm());
  m.at(10s, runner_load_observed{1u});
  CHECK_FALSE(reported(m, "last job finished"));
  CHECK(m.at(20s, runner_load_observed{0u}).empty());
  CHECK(reported(m, "the runner's last job finished; waiting for the runner to exit"));
  // A drained runner that said it ran none takes no new job: a scrape failing as it shuts
  // down keeps that known (drain_unknown_end_test.cpp).
  m.at(25s, runner_load_observed{std::nullopt});
  CHECK(m.state().jobs_running == 0u);
}

TEST_CASE("status shows no job count once the runner is gone, however it last reported") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(1s, runner_load_observed{3u});
  CHECK(snapshot_of(m.state(), 1s, 1).jobs_running == 3u);
  m.at(5s, sigterm());
  m.at(9s, exited(100, 0));  // the runner ended before a scrape saw its count fall
  CHECK_FALSE(snapshot_of(m.state(), 9s, 2).jobs_running.has_value());
  m.at(10s, unregistration_finished{true, "runner a unregistered"});
  CHECK(m.state().status == warden_status::gone);
  CHECK_FALSE(snapshot_of(m.state(), 10s, 3).jobs_running.has_value());
}

TEST_CASE("the runner's own word for its state is kept as it last said it, changing nothing") {
  machine_under_test m;
  m.start_running();
  CHECK(m.state().runner_reported_state.empty());
  CHECK(m.at(1s, runner_load_observed{1u, "running"}).empty());
  CHECK(m.state().runner_reported_state == "running");
  m.at(5s, sigterm());
  CHECK(m.at(6s, runner_load_observed{1u, "graceful-shutdown"}).empty());
  CHECK(m.state().runner_reported_state == "graceful-shutdown");
  m.at(7s, runner_load_observed{std::nullopt});  // a failed scrape: the runner says nothing
  CHECK(m.state().runner_reported_state.empty());
}

TEST_CASE("a drain between restarts still winds down: unregistered, then gone") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(5s, exited(100, 1));
  REQUIRE(m.state().runner == runner_state::backing_off);
  CHECK(m.at(6s, sigterm()) == lines{"change_status running->shutting_down",
                                     "send_notification drain_started", "unregister_runner"});
  CHECK(m.at(7s, timer_fired{timer_kind::restart_backoff, 1}).empty());
  CHECK(m.at(8s, unregistration_finished{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=1"});
}

namespace {

drain_config awaiting_lookup_config() {
  auto config = unregistering_config();
  config.await_lifecycle_lookup = true;
  return config;
}

shutdown_requested terminated_level() { return {.source = trigger_source::cloud_lifecycle}; }

}  // namespace

TEST_CASE("a cloud drain whose runner stops at once waits for the hook, then completes it") {
  machine_under_test m{awaiting_lookup_config()};
  m.start_running();
  m.at(5s, terminated_level());
  CHECK(m.state().lifecycle_lookup == step_progress::in_progress);
  CHECK(m.at(6s, exited(100, 0)) == lines{"unregister_runner"});
  // Unregistered, but the lookup has not answered: not gone yet.
  CHECK(m.at(7s, unregistration_finished{}).empty());
  CHECK(snapshot_of(m.state(), 7s, 1).phase == drain_phase::completing);
  const auto handed_over = m.at(9s, terminate_hook(9s));
  CHECK(std::find(handed_over.begin(), handed_over.end(),
                  "complete_lifecycle_action hook=drain-hook result=CONTINUE") !=
        handed_over.end());
  CHECK(m.at(10s, lifecycle_action_completed{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a lookup that finds no hook lets the drain end") {
  const auto source = GENERATE(trigger_source::cloud_lifecycle, trigger_source::spot_interruption);
  machine_under_test m{awaiting_lookup_config()};
  m.start_running();
  m.at(5s, shutdown_requested{.source = source});
  m.at(6s, exited(100, 0));
  CHECK(m.at(7s, unregistration_finished{}).empty());
  CHECK(m.at(8s, lifecycle_lookup_ended{"the group has no terminate hook"}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(reported(m, "no lifecycle hook to answer: the group has no terminate hook"));
}

TEST_CASE("operator drains and runwardens without a lifecycle client never wait for a lookup") {
  SECTION("SIGTERM") {
    machine_under_test m{awaiting_lookup_config()};
    m.start_running();
    m.at(5s, sigterm());
    m.at(6s, exited(100, 0));
    CHECK(m.at(7s, unregistration_finished{}).size() == 3);  // gone
    CHECK(m.at(8s, lifecycle_lookup_ended{}).empty());       // nobody waits for it
  }
  SECTION("no lifecycle client") {
    machine_under_test m{unregistering_config()};
    m.start_running();
    m.at(5s, terminated_level());
    m.at(6s, exited(100, 0));
    CHECK(m.at(7s, unregistration_finished{}).size() == 3);
  }
}

// A completion is never given up because the lifecycle client is away (restarted by its
// supervisor, or not started yet after recovery): with a cloud provider on it waits, bounded
// only by the hook's own expiry, and is answered by the client once it is back.
TEST_CASE("a completion due while no lifecycle client is up waits for one") {
  machine_under_test m{awaiting_lookup_config()};
  m.start_running();
  m.at(5s, terminated_level());
  m.at(6s, terminate_hook(6s, 120s, 3600s));
  m.at(20s, exited(100, 0));
  CHECK(m.at(21s, unregistration_finished{}) ==
        lines{"complete_lifecycle_action hook=drain-hook result=CONTINUE"});
  CHECK(m.at(21s, lifecycle_client_unavailable{}).empty());
  CHECK(m.state().status == warden_status::shutting_down);
  CHECK(m.state().lifecycle_completion == step_progress::in_progress);
  CHECK(reported(m, "no lifecycle client is up to complete hook drain-hook yet"));
  // The hook found again by the restarted client is the one already known.
  CHECK(m.at(25s, terminate_hook(25s)).empty());
  CHECK(m.at(26s, lifecycle_action_completed{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("a completion waiting for its client ends at the hook's expiry") {
  machine_under_test m{awaiting_lookup_config()};
  m.start_running();
  m.at(5s, terminated_level());
  m.at(6s, terminate_hook(6s, 120s, 3600s));  // expiry timer id 1
  m.at(20s, exited(100, 0));
  m.at(21s, unregistration_finished{});
  m.at(21s, lifecycle_client_unavailable{});
  CHECK(m.at(3606s, timer_fired{timer_kind::lifecycle_expiry, 1}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("without a cloud provider a missing lifecycle client ends the completion") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(6s, terminate_hook(6s));
  m.at(20s, exited(100, 0));
  m.at(21s, unregistration_finished{});
  CHECK(m.at(21s, lifecycle_client_unavailable{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(reported(m, "no lifecycle client is configured"));
}

// A spot reclaim two minutes after the notice takes the instance, and the runner's
// registration with it: when the unregistrar's next retry (a 60 s rate-limit wait) would come
// after it, the machine asks for one more attempt half a minute before the reclaim.
TEST_CASE("one more unregistration attempt comes before a spot reclaim") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(0s,
       shutdown_requested{.source = trigger_source::spot_interruption, .deadline = instant{120s}});
  CHECK(m.at(50s, exited(100, 0)) ==
        lines{"unregister_runner", "arm_timer unregistration_last_attempt id=2 at=90000ms"});
  CHECK(m.at(90s, timer_fired{timer_kind::unregistration_last_attempt, 2}) ==
        lines{"unregister_runner"});
  CHECK(reported(m, "one more unregistration attempt before it"));
  CHECK(m.at(95s, unregistration_finished{}) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("an unregistration done before the last attempt's time asks nothing more") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(0s,
       shutdown_requested{.source = trigger_source::spot_interruption, .deadline = instant{120s}});
  m.at(50s, exited(100, 0));
  m.at(51s, unregistration_finished{});
  CHECK(m.at(90s, timer_fired{timer_kind::unregistration_last_attempt, 2}).empty());
}

TEST_CASE("a spot notice during the unregistration arms the last attempt, too late, none") {
  machine_under_test m{unregistering_config()};
  m.start_running();
  m.at(0s, sigterm());
  CHECK(m.at(10s, exited(100, 0)) == lines{"unregister_runner"});  // no deadline yet
  const auto notice = m.at(20s, shutdown_requested{.source = trigger_source::spot_interruption,
                                                   .deadline = instant{140s}});
  CHECK(std::find(notice.begin(), notice.end(),
                  "arm_timer unregistration_last_attempt id=2 at=110000ms") != notice.end());
  machine_under_test late{unregistering_config()};
  late.start_running();
  late.at(0s, shutdown_requested{.source = trigger_source::spot_interruption,
                                 .deadline = instant{120s}});
  CHECK(late.at(100s, exited(100, 0)) == lines{"unregister_runner"});  // past 90 s: no more
}
