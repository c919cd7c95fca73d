// The Azure watcher with nothing faked on our side: the real watcher actor, the real libcurl
// HTTP port, CAF's real scheduler, against fake_azure_metadata.py, a Python http.server that
// speaks the Instance Metadata Service's Scheduled Events as Microsoft documents them
// ("Metadata: true" and api-version enforced, DocumentIncarnation, StartRequests). The test
// plays the warden: it receives what the watcher tells its listener and asks it to approve,
// as the warden's wind-down does. Timing is real, so the test waits for what it counts.
#include <catch2/catch.hpp>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "actors/azure_watcher/azure_metadata_watcher.hpp"
#include "actors/azure_watcher/azure_watcher_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
#include "messages/lifecycle_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/azure/azure_metadata_endpoint.hpp"
#include "tests/common/lone_worker.hpp"
#include "tests/common/python_server.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

constexpr std::chrono::milliseconds line_wait_max{10'000};
const std::string events_path = "/metadata/scheduledevents";

caf::actor_system_config& production_like(caf::actor_system_config& config) {
  config.set("scheduler.policy", caf::atom("sharing"));
  config.set("scheduler.max-threads", 2);
  return config;
}

json event(const std::string& id, const std::string& type, const std::string& resource,
           int in_seconds) {
  return {{"EventId", id},
          {"EventType", type},
          {"ResourceType", "VirtualMachine"},
          {"Resources", json::array({resource})},
          {"EventStatus", "Scheduled"},
          {"in_seconds", in_seconds},
          {"Description", "test event"},
          {"EventSource", "Platform"},
          {"DurationInSeconds", -1}};
}

class azure_fixture {
 public:
  azure_fixture() : system_(production_like(config_)), listener_(system_) {}

  ~azure_fixture() {
    if (watcher_) watcher_->stop();
  }

  void start() {
    azure_settings settings;
    settings.metadata_endpoint = server_.url("127.0.0.1", "");
    settings.poll_interval = 200ms;
    auto planned = plan_azure_watcher(settings, 9);
    REQUIRE(planned.error.empty());
    instance_plan plan;
    plan.azure_watcher = std::move(planned.wiring);
    watcher_.emplace(system_, plan, child_id::azure_watcher,
                     caf::actor_cast<caf::actor>(listener_));
    REQUIRE(watcher_->supervisor());
  }

  std::vector<json> command(const json& what) {
    server_.send_line(what.dump());
    ++commands_;
    std::vector<json> seen;
    for (;;) {
      const auto line = server_.read_line(line_wait_max);
      REQUIRE(line);
      auto record = json::parse(*line);
      if (record.contains("ack") && record["ack"] == commands_) return seen;
      seen.push_back(std::move(record));
    }
  }

  std::vector<json> requests_until(const std::function<bool(const std::vector<json>&)>& enough) {
    std::vector<json> seen;
    while (!enough(seen)) {
      const auto line = server_.read_line(line_wait_max);
      if (!line) return seen;
      auto record = json::parse(*line);
      if (!record.contains("ack")) seen.push_back(std::move(record));
    }
    return seen;
  }

  // The next message to the listener, of any of the watcher's kinds, as text.
  template <class... Handlers>
  bool receive(std::chrono::milliseconds wait, Handlers... handlers) {
    bool heard = true;
    listener_->receive(
        handlers..., caf::after(wait) >> [&] { heard = false; });
    return heard;
  }

  caf::actor watcher_actor() {
    return current_child(system_, watcher_->supervisor(), std::string{child_id::azure_watcher}, 5s);
  }

 private:
  testing::python_server server_{FAKE_AZURE_METADATA_SCRIPT, {}};
  caf::actor_system_config config_;
  caf::actor_system system_;
  caf::scoped_actor listener_;
  std::optional<testing::lone_worker> watcher_;
  int commands_ = 0;
};

std::size_t count(const std::vector<json>& requests, const std::string& method,
                  const std::string& path) {
  std::size_t seen = 0;
  for (const auto& request : requests)
    seen += request["method"] == method && request["path"] == path;
  return seen;
}

}  // namespace

TEST_CASE_METHOD(azure_fixture,
                 "a Preempt naming this machine drains, and its approval comes when asked",
                 "[azure][integration]") {
  start();
  const auto first =
      requests_until([](const auto& so_far) { return count(so_far, "GET", events_path) >= 2; });
  REQUIRE_FALSE(first.empty());
  CHECK(first.front()["path"] == "/metadata/instance/compute");
  for (const auto& request : first) {
    CAPTURE(request.dump());
    CHECK(request["metadata"] == true);
    CHECK(request["status"] == 200);
    if (request["path"] == events_path) CHECK(request["query"]["api-version"] == "2020-07-01");
  }
  // Events for other machines, and a Freeze for this one, drain nothing.
  command({{"events", json::array({event("terminate-7", "Terminate", "runners_7", 300),
                                   event("freeze-3", "Freeze", "runners_3", 15)})}});
  requests_until([](const auto& so_far) { return count(so_far, "GET", events_path) >= 2; });
  CHECK_FALSE(receive(0ms, [](const lifecycle_trigger&) {}));
  const auto before = std::chrono::system_clock::now();
  command({{"events", json::array({event("terminate-7", "Terminate", "runners_7", 300),
                                   event("preempt-3", "Preempt", "runners_3", 30)})}});
  lifecycle_trigger trigger;
  REQUIRE(receive(line_wait_max, [&](const lifecycle_trigger& got) { trigger = got; }));
  CHECK(trigger.source == trigger_source::azure_preempt);
  REQUIRE(trigger.deadline);
  // NotBefore is written to the second: the deadline is 25 s after the change, give or take.
  CHECK(*trigger.deadline >= std::chrono::floor<std::chrono::seconds>(before) + 24s);
  CHECK(*trigger.deadline <= std::chrono::system_clock::now() + 26s);
  lifecycle_action action;
  REQUIRE(receive(line_wait_max,
                  [&](const lifecycle_action_pending& pending) { action = pending.action; }));
  CHECK(action.hook_name == "preempt-3");
  CHECK(action.heartbeat_timeout == duration::zero());
  CHECK(action.wind_down_reserve == duration::zero());
  // Nothing is approved before the warden asks.
  const auto quiet =
      requests_until([](const auto& so_far) { return count(so_far, "GET", events_path) >= 3; });
  CHECK(count(quiet, "POST", events_path) == 0);
  caf::anon_send(watcher_actor(), complete_atom::value, std::string{"preempt-3"},
                 lifecycle_result::proceed);
  lifecycle_action_completed completed;
  REQUIRE(receive(line_wait_max, [&](const lifecycle_action_completed& got) { completed = got; }));
  CHECK(completed == lifecycle_action_completed{true,
                                                "Azure event preempt-3 approved "
                                                "(StartRequests)"});
  const auto after =
      requests_until([](const auto& so_far) { return count(so_far, "GET", events_path) >= 2; });
  CHECK(count(quiet, "POST", events_path) + count(after, "POST", events_path) == 1);
}

TEST_CASE_METHOD(azure_fixture, "an approval the service refuses is asked again with backoff",
                 "[azure][integration]") {
  start();
  requests_until([](const auto& so_far) { return count(so_far, "GET", events_path) >= 1; });
  command({{"events", json::array({event("terminate-3", "Terminate", "runners_3", 600)})}});
  REQUIRE(receive(line_wait_max, [](const lifecycle_trigger&) {}));
  REQUIRE(receive(line_wait_max, [](const lifecycle_action_pending&) {}));
  command({{"status", 503}});
  caf::anon_send(watcher_actor(), complete_atom::value, std::string{"terminate-3"},
                 lifecycle_result::proceed);
  const auto refused =
      requests_until([](const auto& so_far) { return count(so_far, "POST", events_path) >= 2; });
  CHECK(count(refused, "POST", events_path) == 2);
  CHECK_FALSE(receive(0ms, [](const lifecycle_action_completed&) {}));
  command({{"status", nullptr}});
  lifecycle_action_completed completed;
  REQUIRE(receive(line_wait_max, [&](const lifecycle_action_completed& got) { completed = got; }));
  CHECK(completed.confirmed);
}

TEST_CASE("the Azure endpoint is checked by name", "[azure][integration]") {
  CHECK(resolve_azure_metadata_endpoint(std::nullopt).endpoint == "http://169.254.169.254");
  CHECK(resolve_azure_metadata_endpoint("169.254.169.254").error ==
        "azure.metadata_endpoint \"169.254.169.254\" must start with http:// or https://");
}
