// The relay between an embedded instance's warden and its host (src/embedding/host_relay),
// fed snapshots by hand: a host hears gone once, however often the warden publishes after
// it (the README's example handed its exit code to main twice), and the public
// status says an unknown end in words of its own, never as exit code 75.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "caf/all.hpp"
#include "src/embedding/host_relay.hpp"
#include "src/embedding/public_status.hpp"

namespace {

using namespace runwarden;
using embedded::instance_state;
using embedded::shutdown_phase;
using embedded::shutdown_trigger;

warden_snapshot gone_snapshot(std::uint64_t version) {
  warden_snapshot snapshot;
  snapshot.version = version;
  snapshot.status = warden_status::gone;
  snapshot.phase = drain_phase::done;
  snapshot.trigger = trigger_source::host;
  snapshot.exit_code = 0;
  snapshot.last_exit = exit_status{};
  return snapshot;
}

// Every status `host` holds now, waiting `quiet` for each further one.
std::vector<embedded::status> statuses_within(caf::scoped_actor& host,
                                              std::chrono::milliseconds quiet) {
  std::vector<embedded::status> seen;
  bool waiting = true;
  host->receive_while(waiting)([&](const embedded::status& next) { seen.push_back(next); },
                               caf::after(quiet) >> [&] { waiting = false; });
  return seen;
}

}  // namespace

TEST_CASE("a host hears gone once, however often the warden publishes after it", "[embedding]") {
  caf::actor_system_config host_config;
  caf::actor_system system{host_config};
  auto gone = std::make_shared<std::atomic<bool>>(false);
  auto relay = system.spawn(
      host_relay, [] {}, gone);
  caf::scoped_actor host{system};
  caf::anon_send(relay, caf::subscribe_atom::value, caf::actor_cast<caf::actor>(host));
  std::atomic<int> callbacks{0};
  caf::anon_send(relay, gone_callback{[&callbacks](const embedded::status&) { ++callbacks; }});

  warden_snapshot running;
  running.version = 1;
  running.status = warden_status::running;
  running.runner_pid = 42;
  caf::anon_send(relay, running);
  // A late answer (an instance identity, an unregistration's progress) after gone changes a
  // field, and the warden publishes again.
  caf::anon_send(relay, gone_snapshot(2));
  auto later = gone_snapshot(3);
  later.instance_id = "i-0abc";
  caf::anon_send(relay, later);

  const auto seen = statuses_within(host, std::chrono::milliseconds{300});
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].state == instance_state::running);
  CHECK(seen[1].state == instance_state::gone);
  CHECK(seen[1].version == 2);
  CHECK(callbacks == 1);
  CHECK(gone->load());

  // One that subscribes after gone hears it once too.
  caf::scoped_actor late_host{system};
  caf::anon_send(relay, caf::subscribe_atom::value, caf::actor_cast<caf::actor>(late_host));
  const auto late_seen = statuses_within(late_host, std::chrono::milliseconds{300});
  REQUIRE(late_seen.size() == 1);
  CHECK(late_seen[0].version == 2);
  caf::anon_send_exit(relay, caf::exit_reason::user_shutdown);
}

TEST_CASE("an unknown end is said as unknown, with no exit code", "[embedding]") {
  auto snapshot = gone_snapshot(7);
  snapshot.last_exit = exit_status{.unknown = true};
  snapshot.exit_code = runner_end_unknown_exit_code;
  snapshot.exit_unknown = true;
  const auto unknown = public_status(snapshot);
  CHECK(unknown.exit_unknown);
  CHECK_FALSE(unknown.exit_code.has_value());

  const auto known = public_status(gone_snapshot(8));
  CHECK_FALSE(known.exit_unknown);
  CHECK(known.exit_code == 0);

  // Before gone there is no exit code, whatever the snapshot held from an earlier run.
  auto restarting = gone_snapshot(9);
  restarting.status = warden_status::running;
  CHECK_FALSE(public_status(restarting).exit_code.has_value());
}

TEST_CASE("the public words are enums, each with the text runwarden ctl shows", "[embedding]") {
  CHECK(to_string(instance_state::shutting_down) == "shutting_down");
  CHECK(to_string(shutdown_phase::waiting_for_runner) == "waiting_for_runner");
  CHECK(to_string(shutdown_trigger::host) == "host");
  CHECK(to_string(shutdown_trigger::spot_interruption) == "spot_interruption");
  CHECK(to_string(shutdown_trigger::gcp_host_maintenance) == "gcp_host_maintenance");
  // Every internal trigger has its public word, the host's own included.
  CHECK(to_string(shutdown_trigger::os_shutdown) == "os_shutdown");
  for (unsigned each = 0; each <= static_cast<unsigned>(trigger_source::os_shutdown); ++each) {
    warden_snapshot snapshot;
    snapshot.trigger = static_cast<trigger_source>(each);
    const auto word = public_status(snapshot).trigger;
    REQUIRE(word.has_value());
    CHECK(to_string(*word) == trigger_token(*snapshot.trigger));
  }
}
