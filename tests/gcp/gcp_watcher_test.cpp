// The Google Cloud watcher with nothing faked on our side: the real watcher actor, two real
// libcurl HTTP ports, CAF's real scheduler, against fake_gce_metadata.py, a Python
// http.server on 127.0.0.1 that speaks the metadata server's protocol as Google documents it
// (Metadata-Flavor both ways, ETags, wait_for_change hanging until a change or
// timeout_sec). The test scripts the server through its stdin and reads every request it
// answered from its stdout. Timing is real, so the test waits for what it counts (a request
// seen, a trigger heard) instead of sampling a window.
#include <catch2/catch.hpp>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "actors/gcp_watcher/gcp_metadata_watcher.hpp"
#include "messages/child_ids.hpp"
#include "messages/lifecycle_messages.hpp"
#include "tests/common/lone_worker.hpp"
#include "tests/common/python_server.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

constexpr std::chrono::milliseconds line_wait_max{10'000};
const std::string preempted_path = "/computeMetadata/v1/instance/preempted";
const std::string maintenance_path = "/computeMetadata/v1/instance/maintenance-event";

caf::actor_system_config& production_like(caf::actor_system_config& config) {
  config.set("scheduler.policy", caf::atom("sharing"));
  config.set("scheduler.max-threads", 2);
  return config;
}

bool waits(const json& request) { return request["query"].value("wait_for_change", "") == "true"; }

class gcp_fixture {
 public:
  gcp_fixture() : system_(production_like(config_)), listener_(system_) {}

  ~gcp_fixture() {
    if (watcher_) watcher_->stop();
  }

  // Starts the watcher on the fake's address, given the way Google's libraries are given it.
  void start(gcp_settings settings = {}) {
    settings.wait_timeout = 2s;  // short, so that a quiet wait's end and reissue is seen
    const environment_map environment{
        {"GCE_METADATA_HOST", "127.0.0.1:" + std::to_string(server_.port())}};
    auto planned = plan_gcp_watcher(settings, environment, 3);
    REQUIRE(planned.error.empty());
    instance_plan plan;
    plan.gcp_watcher = std::move(planned.wiring);
    watcher_.emplace(system_, plan, child_id::gcp_watcher, caf::actor_cast<caf::actor>(listener_));
    REQUIRE(watcher_->supervisor());
  }

  // Sends a command; returns the requests answered until it was applied.
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

  // The requests answered from now until `enough` holds for them, or until line_wait_max
  // passes without a new one.
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

  std::optional<lifecycle_trigger> trigger(std::chrono::milliseconds wait) {
    std::optional<lifecycle_trigger> heard;
    listener_->receive([&](const lifecycle_trigger& got) { heard = got; },
                       caf::after(wait) >> [] {});
    return heard;
  }

 private:
  testing::python_server server_{FAKE_GCE_METADATA_SCRIPT, {}};
  caf::actor_system_config config_;
  caf::actor_system system_;
  caf::scoped_actor listener_;
  std::optional<testing::lone_worker> watcher_;
  int commands_ = 0;
};

std::size_t count(const std::vector<json>& requests, const std::string& path, bool waiting) {
  std::size_t seen = 0;
  for (const auto& request : requests) seen += request["path"] == path && waits(request) == waiting;
  return seen;
}

}  // namespace

TEST_CASE_METHOD(gcp_fixture, "a preemption drains at once, and quiet waits hang and are reissued",
                 "[gcp][integration]") {
  start();
  // Each key: one plain read, then waits with the ETag of what it read; the identity once.
  const auto seen = requests_until([](const auto& so_far) {
    return count(so_far, preempted_path, true) >= 2 && count(so_far, maintenance_path, true) >= 2;
  });
  REQUIRE(count(seen, preempted_path, false) == 1);
  REQUIRE(count(seen, maintenance_path, false) == 1);
  for (const auto& request : seen) {
    CAPTURE(request.dump());
    CHECK(request["flavor"] == true);
    CHECK(request["status"] == 200);
    if (!waits(request)) continue;
    CHECK(request["query"].value("last_etag", "") != "");
    CHECK(request["query"].value("timeout_sec", "") == "2");
    // A quiet wait is ended by the server's timeout_sec, not by the watcher: it hung.
    CHECK(request["waited"].get<double>() >= 1.5);
  }
  for (const auto* key : {"/computeMetadata/v1/instance/id", "/computeMetadata/v1/instance/zone",
                          "/computeMetadata/v1/instance/attributes/created-by"}) {
    const auto reads =
        std::count_if(seen.begin(), seen.end(), [&](const json& r) { return r["path"] == key; });
    CHECK(reads == 1);
  }
  CHECK_FALSE(trigger(0ms));
  const auto before = std::chrono::system_clock::now();
  command({{"preempted", "TRUE"}});
  const auto heard = trigger(line_wait_max);
  const auto after = std::chrono::system_clock::now();
  REQUIRE(heard);
  CHECK(heard->source == trigger_source::gcp_preemption);
  REQUIRE(heard->deadline);
  CHECK(*heard->deadline >= before + 25s);
  CHECK(*heard->deadline <= after + 25s);
  // The wait that was out answered at once with the new value; the next wait holds TRUE.
  const auto next =
      requests_until([](const auto& so_far) { return count(so_far, preempted_path, true) >= 1; });
  CHECK(count(next, preempted_path, true) == 1);
  CHECK_FALSE(trigger(0ms));
}

TEST_CASE_METHOD(gcp_fixture, "host maintenance: TERMINATE drains, MIGRATE is only logged",
                 "[gcp][integration]") {
  gcp_settings settings;
  settings.notices.host_maintenance_deadline = 40min;
  start(settings);
  requests_until([](const auto& so_far) { return count(so_far, maintenance_path, true) >= 1; });
  command({{"maintenance_event", "MIGRATE_ON_HOST_MAINTENANCE"}});
  requests_until([](const auto& so_far) { return count(so_far, maintenance_path, true) >= 1; });
  CHECK_FALSE(trigger(0ms));
  const auto before = std::chrono::system_clock::now();
  command({{"maintenance_event", "TERMINATE_ON_HOST_MAINTENANCE"}});
  const auto heard = trigger(line_wait_max);
  REQUIRE(heard);
  CHECK(heard->source == trigger_source::gcp_host_maintenance);
  CHECK(*heard->deadline >= before + 40min);
}

TEST_CASE_METHOD(gcp_fixture, "answers without Metadata-Flavor: Google are refused",
                 "[gcp][integration]") {
  command({{"flavor", false}, {"preempted", "TRUE"}});
  start();
  // Refused answers are asked again with backoff: several plain reads, no wait, no trigger.
  const auto refused =
      requests_until([](const auto& so_far) { return count(so_far, preempted_path, false) >= 3; });
  CHECK(count(refused, preempted_path, false) == 3);
  CHECK(count(refused, preempted_path, true) == 0);
  CHECK_FALSE(trigger(0ms));
  command({{"flavor", true}});
  const auto heard = trigger(line_wait_max);
  REQUIRE(heard);
  CHECK(heard->source == trigger_source::gcp_preemption);
}

TEST_CASE("the Google Cloud endpoint: setting, GCE_METADATA_HOST, bad values named",
          "[gcp][integration]") {
  gcp_settings settings;
  const auto bad = plan_gcp_watcher(settings, {{"GCE_METADATA_HOST", "http://x/"}}, 1);
  CHECK_FALSE(bad.wiring);
  CHECK(bad.error ==
        "GCE_METADATA_HOST \"http://x/\" must be a host and an optional port, such "
        "as \"169.254.169.254\" or \"127.0.0.1:8080\"");
  settings.metadata_endpoint = "metadata.google.internal";
  const auto unschemed = plan_gcp_watcher(settings, {}, 1);
  CHECK(unschemed.error ==
        "gcp.metadata_endpoint \"metadata.google.internal\" must start with http:// or https://");
}
