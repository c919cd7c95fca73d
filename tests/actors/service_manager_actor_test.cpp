// The service manager actor in virtual time against a fake warden: it subscribes, turns
// snapshots into sd_notify lines, and pings the watchdog only with the warden's own answer,
// so a warden that stops answering (wedged) stops the pings and systemd would restart it.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "actors/service_manager/service_manager_actor.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using datagrams = std::vector<std::vector<std::string>>;

struct fake_warden_state {
  warden_snapshot snapshot;
  bool wedged = false;  // takes requests but never answers
  std::vector<caf::typed_response_promise<warden_snapshot>> unanswered;
};

// Spawned with an argument: CAF 0.17.6 trips UBSan on actors spawned without one (shared
// notes, pitfall 11).
service_manager_listener_actor::behavior_type fake_warden(
    service_manager_listener_actor::stateful_pointer<fake_warden_state> self,
    warden_status status) {
  self->state.snapshot.status = status;
  return {
      [=](subscribe_atom, const status_subscriber_actor& subscriber) {
        self->send(subscriber, self->state.snapshot);
      },
      [=](caf::get_atom) -> caf::result<warden_snapshot> {
        if (!self->state.wedged) return self->state.snapshot;
        self->state.unanswered.push_back(self->make_response_promise<warden_snapshot>());
        return caf::delegated<warden_snapshot>{};
      },
  };
}

service_manager_wiring wiring_for(const service_manager_listener_actor& warden,
                                  std::optional<std::chrono::microseconds> watchdog,
                                  std::shared_ptr<datagrams> sent) {
  return service_manager_wiring{
      .warden = warden,
      .facts = {},
      .watchdog_interval = watchdog,
      .send = [sent](const std::vector<std::string>& lines) { sent->push_back(lines); },
      .wall_clock = [] { return std::chrono::system_clock::time_point{1795611600s}; }};
}

std::size_t pings(const datagrams& sent) {
  std::size_t count = 0;
  for (const auto& lines : sent) count += lines == std::vector<std::string>{"WATCHDOG=1"};
  return count;
}

}  // namespace

TEST_CASE("the watchdog is pinged with each answer of the warden, and not once it is wedged",
          "[service_manager]") {
  runwarden::testing::deterministic_fixture fixture;
  auto sent = std::make_shared<datagrams>();
  auto warden = fixture.spawn(fake_warden, warden_status::running);
  auto notifier = fixture.spawn(service_manager_behavior, wiring_for(warden, 2s, sent));
  caf::anon_send(notifier, listening_atom::value);
  fixture.run();
  // The control API listened before the subscription's first snapshot came: one datagram.
  CHECK(*sent == datagrams{{"READY=1", "STATUS=running"}});
  // Every half interval (1 s) the warden is asked, and its answer pings the watchdog.
  for (int second = 0; second < 4; ++second) fixture.advance(1s);
  CHECK(pings(*sent) == 4);
  fixture.state_of<fake_warden_state>(warden).wedged = true;
  for (int second = 0; second < 6; ++second) fixture.advance(1s);
  CHECK(pings(*sent) == 4);
  CHECK_FALSE(fixture.state_of<fake_warden_state>(warden).unanswered.empty());
  // Answering again resumes the pings.
  fixture.state_of<fake_warden_state>(warden).wedged = false;
  fixture.advance(1s);
  fixture.advance(1s);
  CHECK(pings(*sent) >= 5);
}

TEST_CASE("without WatchdogSec= no ping is sent, and an unchanged warden sends nothing more",
          "[service_manager]") {
  runwarden::testing::deterministic_fixture fixture;
  auto sent = std::make_shared<datagrams>();
  auto warden = fixture.spawn(fake_warden, warden_status::running);
  auto notifier = fixture.spawn(service_manager_behavior, wiring_for(warden, std::nullopt, sent));
  caf::anon_send(notifier, listening_atom::value);
  fixture.run();
  for (int refresh = 0; refresh < 4; ++refresh) fixture.advance(150s);
  CHECK(*sent == datagrams{{"READY=1", "STATUS=running"}});
}
