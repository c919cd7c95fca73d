// The notifier as run_command wires it, in virtual time: the child "notifier" of a
// supervisor, the real warden listening to that supervisor, and a scripted HTTP port that
// can hold requests unanswered. The test crashes the notifier while a webhook is in flight
// and checks that the restarted notifier delivers it: the warden learned the new handle
// from the supervisor and re-sent what the old one had not settled.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <csignal>
#include <memory>
#include <vector>

#include "actors/notifier/notifier_actor.hpp"
#include "actors/supervisor/supervisor_actor.hpp"
#include "actors/warden/warden_actor.hpp"
#include "messages/child_ids.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr const char* hook = "http://203.0.113.5/hook";

struct held_port_script {
  bool hold = false;  // record requests without answering, as if they were in flight
  std::vector<http_request> requests;
};

http_port_actor::behavior_type holding_http_port(http_port_actor::pointer self,
                                                 std::shared_ptr<held_port_script> script) {
  return {
      [](const host_lookup&) {},  // the webhook's host is numeric: never asked
      [=](const http_request& request) {
        script->requests.push_back(request);
        if (script->hold) return;
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                       http_response{.id = request.id, .status_code = 200});
      },
  };
}

// Every spawn succeeds with pid 100; signals are not this test's concern.
process_port_actor::behavior_type answering_process_port(process_port_actor::pointer self,
                                                         std::int64_t pid) {
  return {
      [=](spawn_atom) {
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), runner_spawned{pid});
      },
      [](signal_atom, std::int64_t, std::int32_t) {},
      [](adopt_atom, std::int64_t, const process_identity&) {},
      [](release_atom, std::int64_t, bool) {},
  };
}

warden_exit_listener_actor::behavior_type ignoring_listener(warden_exit_listener_actor::pointer,
                                                            int /*unused*/) {
  return {[](const warden_exited&) {}, [](const os_signal_received&) {}};
}

class supervised_notifier_fixture : public testing::deterministic_fixture {
 public:
  supervised_notifier_fixture() {
    const auto port = spawn(holding_http_port, script_);
    notifier_wiring wiring{.http_port = port,
                           .webhook = parse_webhook_target(hook).target,
                           .secret = "",
                           .timeout = 5s,
                           .limits = {.retry_initial = 1s, .retry_max = 30s, .attempts_max = 4},
                           .random_seed = 1,
                           .version = "9.9.9"};
    supervised_child notifier{
        {std::string{child_id::notifier}}, [wiring](caf::local_actor* supervisor) {
          return caf::actor_cast<caf::actor>(supervisor->spawn(notifier_behavior, wiring));
        }};
    supervisor_ = spawn(supervisor_behavior, supervisor_wiring{{}, {notifier}});
    const drain_config config{.graceful_signal = SIGQUIT,
                              .forceful_signal = SIGTERM,
                              .restart = restart_settings{.jitter = 0.0},
                              .drain_timeout = 30s,
                              .kill_timeout = 5s,
                              .random_seed = 1};
    warden_ = spawn(warden_behavior,
                    warden_wiring{config, spawn(answering_process_port, std::int64_t{100}),
                                  spawn(ignoring_listener, 0), notifier_actor{}});
    caf::anon_send(supervisor_, caf::subscribe_atom::value, child_listener_actor{warden_});
    run();
  }

  caf::actor current_notifier() { return state_of<supervisor_state>(supervisor_).handles.at(0); }

  std::shared_ptr<held_port_script> script_ = std::make_shared<held_port_script>();
  supervisor_implementation supervisor_;
  warden_implementation warden_;
};

nlohmann::json without_wall_clock(const std::string& body) {
  auto parsed = nlohmann::json::parse(body);
  for (const char* key : {"time", "status_since", "drain_started_at", "drain_deadline"})
    parsed.erase(key);
  return parsed;
}

}  // namespace

TEST_CASE_METHOD(supervised_notifier_fixture,
                 "a notifier crashing mid-delivery is restarted and the webhook still goes out",
                 "[supervisor][notifier]") {
  const auto first = current_notifier();
  REQUIRE(first);
  CHECK(state_of<warden_state>(warden_).notifier.address() == first.address());

  script_->hold = true;
  caf::anon_send(warden_, os_signal_received{SIGTERM});
  run();
  REQUIRE(script_->requests.size() == 1);
  CHECK(state_of<warden_state>(warden_).unsettled.size() == 1);

  script_->hold = false;
  caf::anon_send_exit(first, caf::exit_reason::unknown);  // an abnormal end, like a throw
  run();
  const auto second = current_notifier();
  REQUIRE(second);
  CHECK(second != first);
  CHECK(state_of<warden_state>(warden_).notifier.address() == second.address());
  REQUIRE(script_->requests.size() == 2);
  CHECK(script_->requests[1].url == hook);
  // The same notification, rendered again: wall-clock fields may move by the time it took.
  CHECK(without_wall_clock(script_->requests[1].body) ==
        without_wall_clock(script_->requests[0].body));
  CHECK(state_of<warden_state>(warden_).unsettled.empty());
}
