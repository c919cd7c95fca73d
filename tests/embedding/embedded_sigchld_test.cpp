// The host's SIGCHLD is the host's: runwarden learned of its runner's end from a
// SIGCHLD handler of asio's, so a handler the host installed after start() took the signal
// away, and runwarden never saw its runner end. It now watches a pidfd and leaves SIGCHLD
// alone: as the host set it before start(), and as the host sets it after.
#include <catch2/catch.hpp>

#include <signal.h>

#include <atomic>

#include "caf/all.hpp"
#include "runwarden/instance.hpp"
#include "tests/embedding/host_side.hpp"

namespace {

using namespace runwarden::embedded;
using namespace runwarden::embedded::testing;

std::atomic<int> host_sigchld_count{0};

void host_sigchld(int) { ++host_sigchld_count; }

void (*sigchld_handler_now())(int) {
  struct sigaction now {};
  REQUIRE(::sigaction(SIGCHLD, nullptr, &now) == 0);
  return now.sa_handler;
}

}  // namespace

TEST_CASE("a SIGCHLD handler the host installs after start() does not hide the runner's end",
          "[embedding][process]") {
  scratch_directory state;
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  caf::scoped_actor host{system};
  REQUIRE(sigchld_handler_now() == SIG_DFL);
  auto started = instance::start(system, demo_config(state));
  REQUIRE(started.error.empty());
  started.instance->subscribe(caf::actor_cast<caf::actor>(host));
  statuses_until(host, runner_runs);
  CHECK(sigchld_handler_now() == SIG_DFL);  // runwarden changed nothing

  struct sigaction own {};
  own.sa_handler = host_sigchld;
  ::sigemptyset(&own.sa_mask);
  own.sa_flags = SA_RESTART;
  REQUIRE(::sigaction(SIGCHLD, &own, nullptr) == 0);
  REQUIRE(started.instance->request_shutdown({.reason = "sigchld", .forceful = true}).empty());
  const auto end = statuses_until(host, gone).back();
  CHECK(end.exit_code.has_value());  // seen, and reaped by runwarden with its real status
  CHECK_FALSE(end.exit_unknown);
  CHECK(host_sigchld_count > 0);  // the host's handler heard it too
  started.instance->stop();
  CHECK(sigchld_handler_now() == host_sigchld);  // and stays the host's
  struct sigaction by_default {};
  by_default.sa_handler = SIG_DFL;
  ::sigaction(SIGCHLD, &by_default, nullptr);
}
