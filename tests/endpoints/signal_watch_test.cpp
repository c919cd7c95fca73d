// The signal watch with real signals, raised in this process: caught and handed over while
// it lives, and ignored once it has gone, so that a stop signal arriving while runwarden
// ends cannot kill it and replace its exit code (bench/measure_completion.py met this: a
// SIGTERM sent as the drain finished killed runwarden 1 ms before its exit with code 0).
#include <catch2/catch.hpp>

#include <csignal>
#include <memory>

#include "caf/all.hpp"
#include "src/ports/os/io_thread.hpp"
#include "src/ports/os/signal_watch.hpp"

namespace runwarden {

namespace {

// The disposition of `signal_number`, read without changing it.
void (*disposition_of(int signal_number))(int) {
  struct sigaction current {};
  REQUIRE(sigaction(signal_number, nullptr, &current) == 0);
  return current.sa_handler;
}

}  // namespace

TEST_CASE("the signal watch hands a signal over while it lives, and ignores it once gone",
          "[signal_watch]") {
  caf::actor_system_config config;
  caf::actor_system system{config};
  caf::scoped_actor listener{system};
  {
    io_thread io;
    auto watch = std::make_shared<signal_watch>(io.context());
    watch->start(caf::actor_cast<os_signal_listener_actor>(listener));
    REQUIRE(std::raise(SIGHUP) == 0);
    int received = 0;
    listener->receive(
        [&](const os_signal_received& signal) { received = signal.signal_number; },
        caf::after(std::chrono::seconds{30}) >> [] { FAIL("no signal handed over"); });
    CHECK(received == SIGHUP);
    watch->stop();
    io.stop();
    watch.reset();
  }
  for (const int signal_number : {SIGTERM, SIGINT, SIGQUIT, SIGHUP}) {
    CHECK(disposition_of(signal_number) == SIG_IGN);
    // Would end this test process were it not ignored.
    REQUIRE(std::raise(signal_number) == 0);
    std::signal(signal_number, SIG_DFL);
  }
}

}  // namespace runwarden
