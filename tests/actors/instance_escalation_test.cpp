// An instance whose worker keeps crashing, built by the assembly (src/assembly/instance) on
// scripted ports in virtual time, as the simulation builds its instances: past the restart
// intensity the worker's supervisor gives up, and the instance itself (not a host) drains
// the runner the graceful way and ends with exit_software. The metrics poller stands for any
// worker: every row of the tree gives up the same way (instance_tree.cpp). A stop of the
// instance, by contrast, is no give-up: it drains nothing.
#include <catch2/catch.hpp>

#include <csignal>
#include <memory>
#include <vector>

#include "actors/notifier/webhook_notifier.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
#include "src/assembly/drain_config_from_settings.hpp"
#include "src/assembly/instance.hpp"
#include "src/assembly/instance_tree.hpp"
#include "src/util/exit_codes.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr std::int64_t runner_pid = 100;

struct recorded {
  std::vector<int> signals;
  std::vector<int> exit_codes;
};

process_port_actor::behavior_type recording_process_port(process_port_actor::pointer self,
                                                         std::shared_ptr<recorded> seen) {
  return {
      [=](spawn_atom) {
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                       runner_spawned{runner_pid});
      },
      [=](signal_atom, std::int64_t, std::int32_t signal) { seen->signals.push_back(signal); },
      [](adopt_atom, std::int64_t, const process_identity&) {},
      [](release_atom, std::int64_t, bool) {},
  };
}

// The runner's metrics page never answers: the poller only has to be alive to be crashed.
// It takes an argument it does not use: CAF 0.17.6 binds a null pointer when an actor is
// spawned without any, which UBSan stops.
http_port_actor::behavior_type silent_http_port(http_port_actor::pointer,
                                                std::shared_ptr<recorded>) {
  return {[](const host_lookup&) {}, [](const http_request&) {}};
}

warden_exit_listener_actor::behavior_type exit_recorder(warden_exit_listener_actor::pointer,
                                                        std::shared_ptr<recorded> seen) {
  return {[=](const warden_exited& exited) { seen->exit_codes.push_back(exited.exit_code); },
          [](const os_signal_received&) {}};
}

class escalation_fixture : public testing::deterministic_fixture {
 public:
  escalation_fixture() {
    settings config;
    config.runner.kind = runner_kind_name::gitlab;
    instance_plan plan{
        .drain = make_drain_config(config, 1),
        .notifier = *plan_notifier(config.webhook, 1, {}).wiring,
        .metrics_poller = metrics_poller_wiring{
            .url = "http://127.0.0.1:9252/metrics", .http_port = {}, .listener = {}}};
    const auto http = spawn(silent_http_port, seen_);
    runwarden_ = instance::start(system(), std::move(plan),
                                 instance_ports{.process = spawn(recording_process_port, seen_),
                                                .http = [http] { return http; },
                                                .exit_listener = spawn(exit_recorder, seen_)});
    run();
  }

  ~escalation_fixture() {
    runwarden_.stop(caf::exit_reason::kill);
    run();
  }

  caf::actor current_poller() {
    const auto supervisor = caf::actor_cast<supervisor_implementation>(
        runwarden_.supervisor_of(child_id::metrics_poller));
    if (!supervisor) return {};
    return state_of<supervisor_state>(supervisor).handles.at(0);
  }

  // What an exception escaping the poller does to it, `times` times in a row.
  void crash_poller(int times) {
    for (int crash = 0; crash < times; ++crash) {
      const auto poller = current_poller();
      REQUIRE(poller);
      caf::anon_send_exit(poller, caf::exit_reason::unhandled_exception);
      run();
    }
  }

  instance runwarden_;
  std::shared_ptr<recorded> seen_ = std::make_shared<recorded>();
};

}  // namespace

TEST_CASE("every worker of the tree has one row, and every row gives up the same way",
          "[instance]") {
  std::vector<std::string_view> ids;
  for (const auto& row : instance_tree()) {
    CHECK(row.start != nullptr);
    CHECK(row.restart == restart_type::permanent);
    CHECK(row.give_up == give_up_action::drain_then_exit);
    ids.push_back(row.id);
  }
  CHECK(ids == std::vector<std::string_view>{child_id::unregistration, child_id::notifier,
                                             child_id::metrics_poller, child_id::aws_watcher,
                                             child_id::azure_watcher, child_id::gcp_watcher,
                                             child_id::lifecycle_hooks, child_id::scaler,
                                             child_id::metrics_publisher, child_id::pod_annotator});
}

TEST_CASE_METHOD(escalation_fixture,
                 "a worker that keeps crashing drains the instance, which ends with 70",
                 "[instance]") {
  // Within the restart intensity (worker_supervision: 5 a minute) the poller comes back.
  crash_poller(worker_supervision.restarts_max);
  CHECK(current_poller());
  CHECK(seen_->signals.empty());
  // One crash more: its supervisor gives up, and the runner is asked to drain gracefully
  // (once its start grace is over: the metrics page that would say it is ready never answers).
  crash_poller(1);
  advance(2s);
  REQUIRE(seen_->signals == std::vector<int>{SIGQUIT});
  CHECK(seen_->exit_codes.empty());  // never gone while the runner runs
  caf::anon_send(runwarden_.warden(), runner_exited{runner_pid, exit_status{}});
  run();
  advance(1s);
  CHECK(seen_->exit_codes == std::vector<int>{exit_software});
}

TEST_CASE_METHOD(escalation_fixture, "a crash within the intensity, then a stop, drains nothing",
                 "[instance]") {
  crash_poller(2);
  runwarden_.stop();
  run();
  CHECK(seen_->signals.empty());
  CHECK(seen_->exit_codes.empty());
}
