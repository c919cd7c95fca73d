// The drain machine, driven by event sequences with explicit times. Each case lists the
// exact effects expected (reports aside, which are checked only where their text matters),
// so any change in what the machine decides shows up as a failing line here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

TEST_CASE("a graceful drain waits for the runner however long it takes") {
  machine_under_test m;
  m.start_running();
  CHECK(m.at(5s, sigterm()) == lines{"change_status running->shutting_down",
                                     "send_notification drain_started",
                                     "signal_runner graceful SIGQUIT pid=100"});
  CHECK(m.state().status == warden_status::shutting_down);
  CHECK(m.at(5h, exited(100, 0)) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
}

TEST_CASE("past the deadline the runner gets the forceful signal, then SIGKILL") {
  auto config = gitlab_config();
  config.drain_timeout = 60s;
  machine_under_test m{config};
  m.start_running();
  CHECK(m.at(10s, sigterm()) == lines{"change_status running->shutting_down",
                                      "send_notification drain_started",
                                      "signal_runner graceful SIGQUIT pid=100",
                                      "arm_timer drain_deadline id=1 at=70000ms"});
  CHECK(m.at(70s, timer_fired{timer_kind::drain_deadline, 1}) ==
        lines{"signal_runner forceful SIGTERM pid=100", "arm_timer kill_timeout id=2 at=80000ms"});
  CHECK(m.at(80s, timer_fired{timer_kind::kill_timeout, 2}) ==
        lines{"signal_runner kill SIGKILL pid=100"});
  CHECK(m.at(80s, killed(100, SIGKILL)) == lines{"change_status shutting_down->gone",
                                                 "send_notification gone", "exit_warden code=137"});
}

TEST_CASE("a runner that finishes before the deadline is never signalled again") {
  auto config = gitlab_config();
  config.drain_timeout = 60s;
  machine_under_test m{config};
  m.start_running();
  m.at(10s, sigterm());
  CHECK(m.at(30s, exited(100, 0)) ==
        lines{"change_status shutting_down->gone", "send_notification gone", "exit_warden code=0"});
  CHECK(m.at(70s, timer_fired{timer_kind::drain_deadline, 1}).empty());
}

TEST_CASE("a second SIGINT or SIGTERM forces, a third adds nothing") {
  machine_under_test m;
  m.start_running();
  m.at(1s, sigint());
  CHECK(m.at(2s, sigint()) ==
        lines{"signal_runner forceful SIGTERM pid=100", "arm_timer kill_timeout id=1 at=12000ms"});
  CHECK(m.at(3s, sigterm()).empty());
  CHECK(m.at(12s, timer_fired{timer_kind::kill_timeout, 1}) ==
        lines{"signal_runner kill SIGKILL pid=100"});
}

TEST_CASE("SIGQUIT then SIGTERM forces, SIGQUIT twice does not") {
  machine_under_test quit_then_term;
  quit_then_term.start_running();
  quit_then_term.at(1s, shutdown_requested{.source = trigger_source::signal_quit});
  CHECK(quit_then_term.at(2s, sigterm()).at(0) == "signal_runner forceful SIGTERM pid=100");

  machine_under_test quit_twice;
  quit_twice.start_running();
  quit_twice.at(1s, shutdown_requested{.source = trigger_source::signal_quit});
  CHECK(quit_twice.at(2s, shutdown_requested{.source = trigger_source::signal_quit}).empty());
}

TEST_CASE("a SIGTERM after an API-triggered drain keeps draining gracefully") {
  machine_under_test m;
  m.start_running();
  m.at(1s, shutdown_requested{.source = trigger_source::control_api});
  CHECK(m.at(2s, sigterm()).empty());
  CHECK(m.state().stage == escalation::graceful_sent);
}

TEST_CASE("later triggers only tighten the deadline, the old timer is ignored") {
  machine_under_test m;
  m.start_running();
  m.at(0s,
       shutdown_requested{.source = trigger_source::cloud_lifecycle, .deadline = instant{600s}});
  CHECK(m.at(10s, shutdown_requested{.source = trigger_source::cloud_lifecycle,
                                     .deadline = instant{900s}})
            .empty());
  CHECK(m.at(20s, shutdown_requested{.source = trigger_source::control_api,
                                     .deadline = instant{120s}}) ==
        lines{"arm_timer drain_deadline id=2 at=120000ms"});
  CHECK(m.at(120s, timer_fired{timer_kind::drain_deadline, 2}).at(0) ==
        "signal_runner forceful SIGTERM pid=100");
  CHECK(m.at(600s, timer_fired{timer_kind::drain_deadline, 1}).empty());
}

TEST_CASE("a later deadline asked during a drain is said not to apply, naming the one that does") {
  machine_under_test m;
  m.start_running();
  m.at(0s,
       shutdown_requested{.source = trigger_source::cloud_lifecycle, .deadline = instant{600s}});
  m.at(10s,
       shutdown_requested{.source = trigger_source::spot_interruption, .deadline = instant{900s}});
  const auto& said = m.reports();
  CHECK(std::find(said.begin(), said.end(),
                  "the deadline spot interruption asks for is not earlier than the drain's, which "
                  "stands (in 9m50s)") != said.end());
}

TEST_CASE("a deadline already past when the drain begins forces at once") {
  machine_under_test m;
  m.start_running();
  CHECK(m.at(200s, shutdown_requested{.source = trigger_source::cloud_lifecycle,
                                      .deadline = instant{120s}}) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100", "signal_runner forceful SIGTERM pid=100",
              "arm_timer kill_timeout id=1 at=210000ms"});
}

TEST_CASE("restart types follow OTP: permanent always, transient on failure, temporary never") {
  struct row {
    restart_type type;
    exit_status status;
    bool restarts;
    int exit_code;
  };
  const std::vector<row> table{
      {restart_type::permanent, {false, 0}, true, 0},
      {restart_type::permanent, {false, 3}, true, 0},
      {restart_type::transient, {false, 0}, false, 0},
      {restart_type::transient, {false, 3}, true, 0},
      {restart_type::transient, {true, SIGSEGV}, true, 0},
      {restart_type::temporary, {false, 3}, false, 3},
      {restart_type::temporary, {true, SIGSEGV}, false, 139},
  };
  for (const auto& r : table) {
    auto config = gitlab_config();
    config.restart.type = r.type;
    machine_under_test m{config};
    m.start_running();
    const auto effects = m.at(1s, runner_exited{100, r.status});
    INFO(to_string(r.type) << " " << to_string(r.status));
    if (r.restarts) {
      CHECK(effects == lines{"arm_timer restart_backoff id=1 at=2000ms"});
    } else {
      CHECK(effects == lines{"change_status running->gone", "send_notification gone",
                             "exit_warden code=" + std::to_string(r.exit_code)});
    }
  }
}

TEST_CASE("backoff doubles up to its maximum and the budget ends the restarts") {
  auto config = gitlab_config();
  config.restart.type = restart_type::permanent;
  config.restart.backoff_initial = 1s;
  config.restart.backoff_max = 4s;
  config.restart.budget_restarts_max = 4;
  config.restart.budget_window = 10min;
  machine_under_test m{config};
  m.start_running();
  duration now = 0s;
  std::int64_t pid = 100;
  for (const auto expected_delay : {1s, 2s, 4s, 4s}) {
    const auto effects = m.at(now += 1s, exited(pid, 1));
    REQUIRE(effects.size() == 1);
    const auto due = now + expected_delay;
    CHECK(effects[0] ==
          "arm_timer restart_backoff id=" + std::to_string(m.state().timers.restart_backoff->id) +
              " at=" + std::to_string(due / 1ms) + "ms");
    CHECK(m.at(now = due,
               timer_fired{timer_kind::restart_backoff, m.state().timers.restart_backoff->id}) ==
          lines{"spawn_runner"});
    CHECK(m.at(now, runner_spawned{++pid}).empty());
  }
  CHECK(m.at(now += 1s, exited(pid, 5)) == lines{"send_notification restart_budget_spent",
                                                 "change_status running->gone",
                                                 "send_notification gone", "exit_warden code=5"});
  CHECK(m.reports().back().find("restart budget is spent: 4 restarts within 10m") !=
        std::string::npos);
}

TEST_CASE("restarts older than the budget window no longer count") {
  auto config = gitlab_config();
  config.restart.budget_restarts_max = 1;
  config.restart.budget_window = 60s;
  machine_under_test m{config};
  m.start_running();
  duration now = 0s;
  for (std::int64_t pid = 100; pid < 105; ++pid) {
    REQUIRE(m.at(now += 61s, exited(pid, 1)).size() == 1);  // arm_timer: still in budget
    m.at(now += 1s, timer_fired{timer_kind::restart_backoff, m.state().timers.restart_backoff->id});
    m.at(now, runner_spawned{pid + 1});
  }
  CHECK(m.state().restarts_total == 5);
  CHECK(m.at(now += 1s, exited(105, 1)).back() == "exit_warden code=1");
}

TEST_CASE("a budget exhausted by clean exits still exits non-zero") {
  auto config = gitlab_config();
  config.restart.type = restart_type::permanent;
  config.restart.budget_restarts_max = 0;
  machine_under_test m{config};
  m.start_running();
  CHECK(m.at(1s, exited(100, 0)).back() == "exit_warden code=1");
}

TEST_CASE("jitter shortens the delay by at most its fraction, the same for the same seed") {
  auto config = gitlab_config();
  config.restart.jitter = 0.5;
  config.restart.backoff_initial = 10s;
  std::vector<std::string> first_run;
  for (int run = 0; run < 2; ++run) {
    machine_under_test m{config};
    m.start_running();
    const auto effects = m.at(0s, exited(100, 1));
    REQUIRE(effects.size() == 1);
    const auto at = m.state().timers.restart_backoff;
    REQUIRE(at);
    if (run == 0) first_run = effects;
    CHECK(effects == first_run);
  }
  machine_under_test m{config};
  m.start_running();
  m.at(0s, exited(100, 1));
  const auto text = first_run.front();
  const auto at_ms = std::stoll(text.substr(text.find("at=") + 3));
  CHECK(at_ms >= 5000);
  CHECK(at_ms <= 10000);
  config.random_seed = 8;
  machine_under_test other_seed{config};
  other_seed.start_running();
  CHECK(other_seed.at(0s, exited(100, 1)) != first_run);
}

TEST_CASE("a drain between restarts ends at once with the last exit status") {
  machine_under_test m;
  m.start_running();
  m.at(1s, exited(100, 4));
  CHECK(m.at(1500ms, sigterm()) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "change_status shutting_down->gone", "send_notification gone", "exit_warden code=4"});
  CHECK(m.at(2s, timer_fired{timer_kind::restart_backoff, 1}).empty());
}

TEST_CASE("a drain during a spawn signals the runner as soon as it is up") {
  machine_under_test m;
  CHECK(m.at(0s, warden_started{}) == lines{"spawn_runner"});
  CHECK(m.at(0s, sigterm()) ==
        lines{"change_status starting->shutting_down", "send_notification drain_started"});
  CHECK(m.at(1s, runner_spawned{100}) == lines{"signal_runner graceful SIGQUIT pid=100"});
  CHECK(m.at(2s, exited(100, 0)).back() == "exit_warden code=0");
}

TEST_CASE("a command that cannot start exits 127 when missing and 126 otherwise") {
  machine_under_test missing;
  missing.at(0s, warden_started{});
  CHECK(missing.at(0s, runner_spawn_failed{ENOENT, "nope: No such file or directory"}) ==
        lines{"change_status starting->gone", "send_notification gone", "exit_warden code=127"});
  CHECK(missing.reports().back() == "cannot start the runner: nope: No such file or directory");
  machine_under_test denied;
  denied.at(0s, warden_started{});
  CHECK(denied.at(0s, runner_spawn_failed{EACCES, "x: Permission denied"}).back() ==
        "exit_warden code=126");
}

TEST_CASE("exits of other processes (reaped orphans) change nothing") {
  machine_under_test m;
  m.start_running(100);
  CHECK(m.at(1s, exited(4242, 0)).empty());
  CHECK(m.state().runner == runner_state::alive);
}

TEST_CASE("SIGHUP is forwarded to a live runner only") {
  machine_under_test m;
  m.start_running();
  CHECK(m.at(1s, reload_requested{}) == lines{"signal_runner reload SIGHUP pid=100"});
  m.at(2s, exited(100, 1));
  CHECK(m.at(2500ms, reload_requested{}).empty());
}

TEST_CASE("after gone nothing happens any more") {
  machine_under_test m;
  m.start_running();
  m.at(1s, sigterm());
  m.at(2s, exited(100, 0));
  CHECK(m.at(3s, sigterm()).empty());
  CHECK(m.at(3s, reload_requested{}).empty());
  CHECK(m.at(3s, timer_fired{timer_kind::kill_timeout, 1}).empty());
  CHECK(m.state().status == warden_status::gone);
}

TEST_CASE("a forceful shutdown forces at once, whether or not a drain is under way") {
  machine_under_test idle;
  idle.start_running();
  CHECK(idle.at(1s, forceful_shutdown_requested{.reason = "operator"}) ==
        lines{"change_status running->shutting_down", "send_notification drain_started",
              "signal_runner graceful SIGQUIT pid=100", "signal_runner forceful SIGTERM pid=100",
              "arm_timer kill_timeout id=1 at=11000ms"});
  CHECK(idle.state().drain_reason == "operator");

  machine_under_test draining;
  draining.start_running();
  draining.at(1s, sigterm());
  CHECK(draining.at(5s, forceful_shutdown_requested{}) ==
        lines{"signal_runner forceful SIGTERM pid=100", "arm_timer kill_timeout id=1 at=15000ms"});

  machine_under_test spawning;
  spawning.at(0s, warden_started{});
  CHECK(spawning.at(0s, forceful_shutdown_requested{}) ==
        lines{"change_status starting->shutting_down", "send_notification drain_started"});
  CHECK(spawning.at(1s, runner_spawned{100}) == lines{"signal_runner graceful SIGQUIT pid=100",
                                                      "signal_runner forceful SIGTERM pid=100",
                                                      "arm_timer kill_timeout id=1 at=11000ms"});
}

TEST_CASE("a later shutdown call's callback replaces the earlier one, sent at gone") {
  // gitlab-runner's wrapper keeps one callback (helpers/runner_wrapper/wrapper.go).
  const shutdown_callback first{"http://127.0.0.1:9/first", "POST", {{"X-Token", "a"}}};
  const shutdown_callback second{"http://127.0.0.1:9/second", "PUT", {}};
  machine_under_test m;
  m.start_running();
  m.at(1s, shutdown_requested{.reason = "scale in", .callback = first});
  CHECK(m.at(2s, shutdown_requested{}).empty());  // none brought: the first stays
  CHECK(m.state().callbacks == std::vector{first});
  CHECK(m.at(3s, shutdown_requested{.callback = second}).empty());
  CHECK(m.state().callbacks == std::vector{second});
  CHECK(std::any_of(m.reports().begin(), m.reports().end(), [](const auto& text) {
    return text.find(
               "shutdown callback to http://127.0.0.1:9/first replaced by a later "
               "call's") != std::string::npos;
  }));
  CHECK(m.at(4s, exited(100, 0)) ==
        lines{"change_status shutting_down->gone",
              "send_notification gone callback=http://127.0.0.1:9/second", "exit_warden code=0"});
}
