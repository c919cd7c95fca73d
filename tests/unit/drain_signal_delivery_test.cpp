// A signal is sent once. The machine records each signal's intent (the escalation stage)
// and, when the process port reports that kill() returned, its delivery; a runwarden
// recovered from its journal re-sends only a signal whose delivery is not recorded, since a
// generic runner may read a second SIGTERM as "force".
#include <catch2/catch.hpp>

#include "tests/unit/machine_under_test.hpp"

using namespace runwarden;
using namespace runwarden::testing;

TEST_CASE("a delivered graceful signal is not sent again after recovery") {
  machine_under_test m;
  m.start_running();
  m.at(5s, sigterm());
  CHECK(m.machine().undelivered_signal() == SIGQUIT);  // decided, not known to be sent
  CHECK(m.at(5s, runner_signal_delivered{100, SIGQUIT}).empty());
  CHECK(m.state().delivered == escalation::graceful_sent);
  CHECK(m.machine().undelivered_signal() == std::nullopt);
}

TEST_CASE("the forceful stage has its own delivery, a stale or foreign report records nothing") {
  machine_under_test m;
  m.start_running();
  m.at(5s, sigterm());
  m.at(5s, runner_signal_delivered{100, SIGQUIT});
  CHECK(m.at(6s, sigterm()).front() == "signal_runner forceful SIGTERM pid=100");
  CHECK(m.machine().undelivered_signal() == SIGTERM);
  // Another pid, a reload's SIGHUP and the graceful signal again leave the stage undelivered.
  m.at(6s, runner_signal_delivered{101, SIGTERM});
  m.at(6s, runner_signal_delivered{100, SIGHUP});
  m.at(6s, runner_signal_delivered{100, SIGQUIT});
  CHECK(m.machine().undelivered_signal() == SIGTERM);
  m.at(6s, runner_signal_delivered{100, SIGTERM});
  CHECK(m.state().delivered == escalation::forceful_sent);
  CHECK(m.machine().undelivered_signal() == std::nullopt);
}

TEST_CASE("no signal is owed to a runner that is gone or was never signalled") {
  machine_under_test m;
  m.start_running();
  CHECK(m.machine().undelivered_signal() == std::nullopt);
  m.at(5s, sigterm());
  m.at(6s, exited(100, 0));
  CHECK(m.machine().undelivered_signal() == std::nullopt);
}
