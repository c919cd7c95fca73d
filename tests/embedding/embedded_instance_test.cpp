// The public embedding API (include/runwarden/) from a host's side, against real things: the
// demo runner as a real child process, real signals, a real state directory and its lock.
// Each test observes the status stream a host actor gets (never a sleep), and a drain is
// followed to gone with the runner's own exit code.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "caf/all.hpp"
#include "runwarden/config.hpp"
#include "runwarden/instance.hpp"
#include "tests/embedding/host_side.hpp"

namespace {

using runwarden::embedded::config;
using runwarden::embedded::instance;
using runwarden::embedded::instance_state;
using runwarden::embedded::shutdown_request;
using runwarden::embedded::shutdown_trigger;
using runwarden::embedded::status;

using namespace runwarden::embedded::testing;

// What runwarden spawned is gone once an instance is stopped: the count of the system's
// running actors comes back to the host's own. Workers end on their own after their
// supervisors, so the count is awaited, bounded.
bool running_actors_settle_at(caf::actor_system& system, std::size_t count) {
  const auto give_up = std::chrono::steady_clock::now() + status_wait_max;
  while (system.registry().running() != count) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds{10});
  }
  return true;
}

// An instance started on the demo runner, followed by `host`, once its runner runs.
instance running_instance(caf::actor_system& system, const scratch_directory& state,
                          caf::scoped_actor& host) {
  auto started = instance::start(system, demo_config(state));
  REQUIRE(started.error.empty());
  started.instance->subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);
  return std::move(*started.instance);
}

// One host with its own actor system and one running instance, for a test that needs no more.
struct one_running_instance {
  scratch_directory state;
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  caf::scoped_actor host{system};
  instance warden = running_instance(system, state, host);
};

}  // namespace

TEST_CASE_METHOD(one_running_instance,
                 "an embedded instance drains its runner on request and ends with its exit code",
                 "[embedding][process]") {
  REQUIRE(warden.current_status()->state == instance_state::running);
  // Any wait a host passes is taken, bounded: none too long to add to a clock.
  CHECK(warden.current_status(std::chrono::milliseconds::max())->state == instance_state::running);

  std::promise<status> at_gone;
  warden.request_shutdown(
      shutdown_request{.reason = "the host is done",
                       .deadline = std::chrono::seconds{30},
                       .on_gone = [&at_gone](const status& s) { at_gone.set_value(s); }});
  const auto drain = statuses_until(host, gone);
  CHECK(std::any_of(drain.begin(), drain.end(),
                    [](const status& s) { return s.state == instance_state::shutting_down; }));
  CHECK(drain.back().exit_code == 0);  // the demo runner finished its jobs and exited 0
  CHECK(drain.back().trigger == shutdown_trigger::host);
  CHECK(drain.back().reason == "the host is done");
  auto gone_future = at_gone.get_future();
  REQUIRE(gone_future.wait_for(status_wait_max) == std::future_status::ready);
  CHECK(gone_future.get().exit_code == 0);
  warden.stop();
}

TEST_CASE("a second instance on one state directory is refused, naming the lock",
          "[embedding][process]") {
  scratch_directory state;
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  auto first = instance::start(system, demo_config(state));
  REQUIRE(first.error.empty());
  const auto second = instance::start(system, demo_config(state));
  CHECK_FALSE(second.instance);
  CHECK_THAT(second.error,
             Catch::Contains("another runwarden uses the state directory " + state.path.string()));
  // The first one is untouched by the refusal: it still drains to gone.
  caf::scoped_actor host{system};
  first.instance->subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);
  first.instance->request_shutdown(shutdown_request{.reason = "test over", .forceful = true});
  CHECK(statuses_until(host, gone).back().state == instance_state::gone);
  first.instance->stop();
}

// The control API's rules hold for a host too: a request they refuse is answered with the
// problem and never reaches the warden. Had one reached it, the drain that follows would
// carry its reason: a second request never replaces the first one's.
TEST_CASE_METHOD(one_running_instance,
                 "a shutdown request the control API would refuse is refused here, and changes "
                 "nothing",
                 "[embedding][process]") {
  CHECK(warden.request_shutdown({.reason = "now", .deadline = std::chrono::milliseconds{-1}}) ==
        "deadline must not be negative");
  CHECK(
      warden.request_shutdown({.reason = "never", .deadline = std::chrono::milliseconds::max()}) ==
      "deadline is longer than 2592000 seconds (30 days)");
  CHECK(warden.request_shutdown({.reason = std::string(2000, 'r'), .forceful = true}) ==
        "reason is longer than 1024 bytes");
  CHECK(warden.request_shutdown({.reason = "two\nlines", .forceful = true}) ==
        "reason holds a line break or control character");

  CHECK(warden.request_shutdown({.reason = "accepted", .forceful = true}).empty());
  const auto drain = statuses_until(host, gone);
  for (const auto& seen : drain) {
    CAPTURE(seen.state, seen.reason);
    CHECK((seen.reason.empty() || seen.reason == "accepted"));
  }
  CHECK(drain.back().reason == "accepted");
  warden.stop();
  CHECK(warden.request_shutdown({.reason = "late"}) == "the instance is stopped");
}

// stop() frees what runwarden's actors use (its io thread, HTTP clients, journal) only once
// they have ended; under AddressSanitizer a port still ending on a CAF worker while the io
// context goes is a use after free. One cycle shows it rarely, so the test runs many.
TEST_CASE("instance after instance, stop() ends every actor before what it uses goes",
          "[embedding][process]") {
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  for (int cycle = 0; cycle < 20; ++cycle) {
    CAPTURE(cycle);
    scratch_directory state;
    caf::scoped_actor host{system};
    auto warden = running_instance(system, state, host);
    warden.request_shutdown(shutdown_request{.reason = "next cycle", .forceful = true});
    CHECK(statuses_until(host, gone).back().state == instance_state::gone);
    warden.stop();
  }
}

// A host's own children stay its own: runwarden reaps its runner by pid, never with
// waitpid(-1), which would take the host's exit statuses (and, with two instances in one
// host, each other's runners). The host's child has exited before the drain, so the reaping
// of the runner at the drain's end would have taken it too.
TEST_CASE_METHOD(one_running_instance,
                 "an embedded instance leaves the host's own children to the host",
                 "[embedding][process]") {
  const pid_t host_child = ::fork();
  if (host_child == 0) ::_exit(7);
  REQUIRE(host_child > 0);
  siginfo_t exited{};
  CHECK(::waitid(P_PID, static_cast<id_t>(host_child), &exited, WEXITED | WNOWAIT) == 0);
  REQUIRE(warden.request_shutdown({.reason = "host child", .forceful = true}).empty());
  statuses_until(host, gone);

  int wait_status = 0;
  REQUIRE(::waitpid(host_child, &wait_status, 0) == host_child);
  CHECK(WIFEXITED(wait_status));
  CHECK(WEXITSTATUS(wait_status) == 7);
  warden.stop();
}

// Two instances in one host: each sees its own runner's end (with waitpid(-1) one reaped
// the other's runner, which was then killed 35 s later as a runner that never ended), and
// an instance assigned over another stops it, leaving no actor of runwarden's behind.
TEST_CASE("two instances in one host each drain their own runner and leave nothing behind",
          "[embedding][process]") {
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  const auto host_actors = system.registry().running();
  scratch_directory first_state, second_state;
  auto first = instance::start(system, demo_config(first_state));
  auto second = instance::start(system, demo_config(second_state));
  REQUIRE(first.error.empty());
  REQUIRE(second.error.empty());
  for (const auto* each : {&*first.instance, &*second.instance}) {
    caf::scoped_actor host{system};
    each->subscribe(caf::actor_cast<caf::actor>(host));
    statuses_until(host, runner_runs);
    REQUIRE(each->request_shutdown({.reason = "replaced", .forceful = true}).empty());
    statuses_until(host, gone);
  }
  *first.instance = std::move(*second.instance);
  first.instance->stop();
  CHECK(running_actors_settle_at(system, host_actors));
}

TEST_CASE("embedded settings are checked as runwarden run checks its file", "[embedding]") {
  const auto bad = config::from_toml("[drain]\ntimeout = \"soon\"\n[runner]\nnope = 1\n",
                                     {"/bin/true"}, "host.toml");
  REQUIRE_FALSE(bad.config);
  REQUIRE(bad.errors.size() == 2);
  CHECK_THAT(bad.errors[0], Catch::StartsWith("host.toml:2: drain.timeout:"));
  CHECK_THAT(bad.errors[1], Catch::StartsWith("host.toml:4:") && Catch::Contains("runner.nope"));
  const auto no_command = config::from_toml("", {});
  REQUIRE_FALSE(no_command.config);
  CHECK_THAT(no_command.errors.front(), Catch::Contains("no runner command"));
  CHECK_THAT(config::from_file("/nonexistent/runwarden.toml").errors.front(),
             Catch::Contains("/nonexistent/runwarden.toml"));
}

namespace {

// The demo runner with a report file, never restarted: its end is the instance's.
config reported_demo_config(const scratch_directory& state, const std::string& report) {
  auto loaded = config::from_toml(
      "[runner]\nkind = \"gitlab\"\n[restart]\npolicy = \"temporary\"\n[journal]\n"
      "state_directory = \"" +
          state.path.string() + "\"\n",
      {DEMO_RUNNER_BINARY, "--concurrency", "1", "--job-seconds", "1", "--report", report});
  REQUIRE(loaded.errors.empty());
  return *loaded.config;
}

bool report_has(const std::string& report, const std::string& line) {
  const auto give_up = std::chrono::steady_clock::now() + status_wait_max;
  while (std::chrono::steady_clock::now() < give_up) {
    std::ifstream file{report};
    for (std::string each; std::getline(file, each);)
      if (each == line) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds{20});
  }
  return false;
}

bool reaped(pid_t pid) {
  const auto give_up = std::chrono::steady_clock::now() + status_wait_max;
  while (std::chrono::steady_clock::now() < give_up) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds{20});
  }
  return false;
}

// An instance started on `settings`, stopped once its runner runs; the runner's pid.
std::int64_t start_then_stop(caf::actor_system& system, const config& settings) {
  caf::scoped_actor host{system};
  auto started = instance::start(system, settings);
  REQUIRE(started.error.empty());
  started.instance->subscribe(caf::actor_cast<caf::actor>(host));
  const auto pid = *statuses_until(host, runner_runs).back().runner_pid;
  started.instance->stop();
  return pid;
}

}  // namespace

// Issue 30, case 6: stop() closed the runner's pipes, and the demo runner (SIGPIPE at its
// default, as a Go program's) died at its next line. The runner goes on writing (each job it
// takes after the stop is announced on its stdout), and the next instance adopts it.
TEST_CASE("stop() leaves the runner running, and the next instance adopts and drains it",
          "[embedding][process]") {
  scratch_directory state;
  const auto report = (state.path / "report").string();
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  const auto settings = reported_demo_config(state, report);
  const auto pid = start_then_stop(system, settings);
  REQUIRE(report_has(report, "job_finished 3"));
  CHECK(::kill(static_cast<pid_t>(pid), 0) == 0);

  caf::scoped_actor host{system};
  auto next = instance::start(system, settings);
  REQUIRE(next.error.empty());
  next.instance->subscribe(caf::actor_cast<caf::actor>(host));
  CHECK(statuses_until(host, runner_runs).back().runner_pid == pid);
  REQUIRE(
      next.instance->request_shutdown({.reason = "adopted", .deadline = std::chrono::seconds{60}})
          .empty());
  CHECK(statuses_until(host, gone).back().exit_code == 0);
  next.instance->stop();
  std::ifstream file{report};
  std::string events{std::istreambuf_iterator<char>{file}, {}};
  CHECK(events.find("job_aborted") == std::string::npos);
}

// A runner that ended while no instance ran: the next one reports its real end (killed by
// SIGKILL: 137), not 75, "unknown".
TEST_CASE("a runner left running that ends meanwhile is reported with its real exit status",
          "[embedding][process]") {
  scratch_directory state;
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  const auto settings = reported_demo_config(state, (state.path / "report").string());
  const auto pid = start_then_stop(system, settings);
  REQUIRE(::kill(static_cast<pid_t>(pid), SIGKILL) == 0);
  REQUIRE(reaped(static_cast<pid_t>(pid)));

  caf::scoped_actor host{system};
  auto next = instance::start(system, settings);
  REQUIRE(next.error.empty());
  next.instance->subscribe(caf::actor_cast<caf::actor>(host));
  CHECK(statuses_until(host, gone).back().exit_code == 128 + SIGKILL);
  next.instance->stop();
}
