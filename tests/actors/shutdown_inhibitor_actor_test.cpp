// The shutdown inhibitor actor in virtual time against a fake warden and a fake port: it
// subscribes, takes the logind lock when jobs run and releases it when they are done; a
// machine without logind is said once and never asked again; another failure is tried again
// at the next change to busy.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/shutdown_inhibitor/shutdown_inhibitor_actor.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;

// Keeps the subscriber, to send it snapshots by hand.
status_source_actor::behavior_type fake_warden(
    status_source_actor::pointer, std::shared_ptr<std::optional<status_subscriber_actor>> kept) {
  return {
      [=](subscribe_atom, const status_subscriber_actor& subscriber) { *kept = subscriber; },
  };
}

// The port's calls as "take" and "release"; takes fail with `failures`, in order.
struct fake_port {
  std::vector<std::string> calls;
  std::vector<inhibit_failure> failures;
};

shutdown_inhibitor_wiring wiring_for(const status_source_actor& warden,
                                     std::shared_ptr<fake_port> port) {
  return {.warden = warden,
          .take = [port]() -> std::optional<inhibit_failure> {
            port->calls.push_back("take");
            if (port->failures.empty()) return std::nullopt;
            auto failure = port->failures.front();
            port->failures.erase(port->failures.begin());
            return failure;
          },
          .release = [port] { port->calls.push_back("release"); }};
}

warden_snapshot with_jobs(std::uint32_t jobs) {
  warden_snapshot snapshot;
  snapshot.status = warden_status::running;
  snapshot.jobs_running = jobs;
  return snapshot;
}

class inhibitor_fixture : public runwarden::testing::deterministic_fixture {
 public:
  void start() {
    const auto warden = spawn(fake_warden, subscriber_);
    spawn(shutdown_inhibitor_behavior, wiring_for(warden, port_));
    run();
  }

  void see(const warden_snapshot& snapshot) {
    REQUIRE(*subscriber_);
    caf::anon_send(**subscriber_, snapshot);
    run();
  }

  std::shared_ptr<fake_port> port_ = std::make_shared<fake_port>();
  std::shared_ptr<std::optional<status_subscriber_actor>> subscriber_ =
      std::make_shared<std::optional<status_subscriber_actor>>();
};

using calls = std::vector<std::string>;

}  // namespace

TEST_CASE_METHOD(inhibitor_fixture, "the lock follows the jobs", "[shutdown_inhibitor]") {
  start();
  see(with_jobs(0));
  CHECK(port_->calls.empty());
  see(with_jobs(2));
  see(with_jobs(1));
  CHECK(port_->calls == calls{"take"});
  see(with_jobs(0));
  CHECK(port_->calls == calls{"take", "release"});
  warden_snapshot gone = with_jobs(3);
  see(gone);
  gone.status = warden_status::gone;
  gone.phase = drain_phase::done;
  see(gone);
  CHECK(port_->calls == calls{"take", "release", "take", "release"});
}

TEST_CASE_METHOD(inhibitor_fixture, "without logind nothing is asked again",
                 "[shutdown_inhibitor]") {
  port_->failures = {{.no_logind = true, .text = "no system bus"}};
  start();
  see(with_jobs(1));
  see(with_jobs(0));
  see(with_jobs(1));
  CHECK(port_->calls == calls{"take"});
}

TEST_CASE_METHOD(inhibitor_fixture, "a refused lock is tried again at the next busy spell",
                 "[shutdown_inhibitor]") {
  port_->failures = {{.no_logind = false, .text = "Access denied"}};
  start();
  see(with_jobs(1));
  see(with_jobs(2));
  see(with_jobs(0));  // nothing held: nothing to release
  see(with_jobs(1));
  CHECK(port_->calls == calls{"take", "take"});
}
