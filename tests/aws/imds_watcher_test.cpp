// The lifecycle watcher with nothing faked on our side: the real watcher actor, the real
// libcurl HTTP port, CAF's real scheduler, against fake_imds.py, a Python http.server that
// speaks IMDSv2 on 127.0.0.1 and enforces its tokens (401 for a missing, unknown or expired
// one). The test scripts the server through its stdin and reads every request it saw from
// its stdout. Timing is real here, so the test waits for what it counts (so many polls, a
// trigger) instead of counting what fits in a window; exact timing is the actor tests'.
#include <catch2/catch.hpp>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "actors/aws_watcher/aws_metadata_watcher.hpp"
#include "messages/child_ids.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/util/rfc3339_time.hpp"
#include "tests/common/lone_worker.hpp"
#include "tests/common/python_server.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

constexpr std::chrono::milliseconds poll_interval{300};
constexpr std::chrono::milliseconds line_wait_max{5'000};
const std::string state_path = "/latest/meta-data/autoscaling/target-lifecycle-state";

caf::actor_system_config& production_like(caf::actor_system_config& config) {
  config.set("scheduler.policy", caf::atom("sharing"));
  config.set("scheduler.max-threads", 2);
  return config;
}

class imds_fixture {
 public:
  imds_fixture() : system_(production_like(config_)), listener_(system_) {}

  ~imds_fixture() {
    if (watcher_) watcher_->stop();
  }

  // Starts the watcher on the fake's address, given the way AWS SDKs are given one.
  void start(aws_settings settings = {}) {
    settings.poll_interval = poll_interval;
    // Every poll reads the spot pages too, unless the test sets their cadence.
    if (settings.spot_poll_interval == aws_settings{}.spot_poll_interval)
      settings.spot_poll_interval = poll_interval;
    const environment_map environment{
        {"AWS_EC2_METADATA_SERVICE_ENDPOINT", server_.url("127.0.0.1", "")}};
    auto planned = plan_aws_watcher(settings, environment, 5);
    REQUIRE(planned.error.empty());
    instance_plan plan;
    plan.aws_watcher = std::move(planned.wiring);
    watcher_.emplace(system_, plan, child_id::aws_watcher, caf::actor_cast<caf::actor>(listener_));
    REQUIRE(watcher_->supervisor());
  }

  // Sends a command and returns every request the server saw until it was applied.
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

  // The requests the server sees from now until `enough` holds for them, or until
  // line_wait_max passes without a new one: a count is waited for, never sampled in a
  // window that a loaded machine could fill with fewer polls.
  std::vector<json> requests_until(const std::function<bool(const std::vector<json>&)>& enough) {
    std::vector<json> seen;
    while (!enough(seen)) {
      const auto line = server_.read_line(line_wait_max);
      if (!line) return seen;
      seen.push_back(json::parse(*line));
    }
    return seen;
  }

  std::optional<instance_identity> identity(std::chrono::milliseconds wait) {
    std::optional<instance_identity> heard;
    listener_->receive([&](const instance_identity& identity) { heard = identity; },
                       caf::after(wait) >> [] {});
    return heard;
  }

  std::vector<lifecycle_trigger> triggers(std::chrono::milliseconds wait) {
    std::vector<lifecycle_trigger> heard;
    const auto until = std::chrono::steady_clock::now() + wait;
    for (;;) {
      const auto left = until - std::chrono::steady_clock::now();
      if (left <= 0s) return heard;
      bool timed_out = false;
      listener_->receive([&](const lifecycle_trigger& trigger) { heard.push_back(trigger); },
                         [&](const instance_identity&) {},
                         caf::after(left) >> [&] { timed_out = true; });
      if (timed_out) return heard;
    }
  }

  // The time until the first trigger, which it stores in `trigger`.
  std::chrono::milliseconds time_to_trigger(lifecycle_trigger& trigger) {
    const auto started = std::chrono::steady_clock::now();
    bool heard = false;
    listener_->receive(
        [&](const lifecycle_trigger& got) {
          trigger = got;
          heard = true;
        },
        caf::after(std::chrono::milliseconds{line_wait_max}) >> [] {});
    REQUIRE(heard);
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 started);
  }

 private:
  testing::python_server server_{FAKE_IMDS_SCRIPT, {}};
  caf::actor_system_config config_;
  caf::actor_system system_;
  caf::scoped_actor listener_;
  std::optional<testing::lone_worker> watcher_;
  int commands_ = 0;
};

std::size_t count(const std::vector<json>& requests, const std::string& method,
                  const std::string& path, int status) {
  std::size_t seen = 0;
  for (const auto& request : requests)
    seen += request["method"] == method && request["path"] == path && request["status"] == status;
  return seen;
}

}  // namespace

TEST_CASE_METHOD(imds_fixture, "Terminated gives one trigger within a poll interval",
                 "[imds][integration]") {
  command({{"lifecycle_state", "InService"}});
  start();
  const auto who = identity(line_wait_max);
  REQUIRE(who);
  CHECK(*who == instance_identity{"i-0fake0imds0test00", "eu-west-1", "123456789012"});
  const auto polled =
      requests_until([](const auto& seen) { return count(seen, "GET", state_path, 200) >= 2; });
  CHECK(count(polled, "GET", state_path, 200) == 2);
  CHECK(count(polled, "PUT", "/latest/api/token", 200) == 1);
  for (const auto& request : polled) CHECK(request["status"] != 401);
  CHECK(triggers(poll_interval).empty());
  command({{"lifecycle_state", "Terminated"}});
  lifecycle_trigger trigger;
  // The next poll reads Terminated and triggers; how soon is measured in bench/, here a
  // loaded machine may take its time.
  CHECK(time_to_trigger(trigger) < line_wait_max);
  CHECK(trigger.source == trigger_source::cloud_lifecycle);
  CHECK(trigger.reason == "Auto Scaling target lifecycle state is Terminated");
  // The level stays; polls go on; no second trigger.
  const auto after =
      requests_until([](const auto& seen) { return count(seen, "GET", state_path, 200) >= 3; });
  CHECK(count(after, "GET", state_path, 200) == 3);
  CHECK(triggers(poll_interval).empty());
}

TEST_CASE_METHOD(imds_fixture, "revoked tokens are replaced after a 401", "[imds][integration]") {
  command({{"lifecycle_state", "InService"}});
  start();
  REQUIRE(identity(line_wait_max));
  command({{"revoke_tokens", true}});
  const auto after = requests_until([](const auto& seen) { return seen.size() >= 3; });
  REQUIRE(after.size() >= 3);
  // The first read after the revocation is refused once, then a new token serves it.
  CHECK(after[0]["status"] == 401);
  CHECK(after[0]["token"] == "bad");
  CHECK(after[1]["method"] == "PUT");
  CHECK(after[1]["status"] == 200);
  CHECK(after[2]["path"] == after[0]["path"]);
  CHECK(after[2]["status"] == 200);
  CHECK(count(after, "GET", state_path, 401) == 1);
  CHECK(triggers(0ms).empty());
}

TEST_CASE_METHOD(imds_fixture, "short-lived tokens are renewed before they expire",
                 "[imds][integration]") {
  command({{"lifecycle_state", "InService"}, {"token_ttl_max", 1}});
  start();
  // A token lives a second, so a renewal follows the first within a few polls.
  const auto seen = requests_until(
      [](const auto& so_far) { return count(so_far, "PUT", "/latest/api/token", 200) >= 2; });
  CHECK(count(seen, "PUT", "/latest/api/token", 200) == 2);
  for (const auto& request : seen) CHECK(request["token"] != "expired");
}

TEST_CASE_METHOD(imds_fixture, "the spot pages are read on their own cadence, every few polls",
                 "[imds][integration]") {
  aws_settings settings;
  settings.spot_poll_interval = 3 * poll_interval;
  start(settings);
  const std::string spot_path = "/latest/meta-data/spot/instance-action";
  const auto reads = [](const std::vector<json>& seen, const std::string& path) {
    std::size_t n = 0;
    for (const auto& request : seen) n += request["method"] == "GET" && request["path"] == path;
    return n;
  };
  // Polls 1, 4 and 7 read it; each poll's reads follow one another, so the third spot read
  // comes after the seventh lifecycle state read and before the eighth.
  const auto seen =
      requests_until([&](const auto& so_far) { return reads(so_far, spot_path) >= 3; });
  CHECK(reads(seen, spot_path) == 3);
  CHECK(reads(seen, state_path) == 7);
}

TEST_CASE_METHOD(imds_fixture, "bad answers give errors, no crash and no drain",
                 "[imds][integration]") {
  command({{"lifecycle_state", "<html><body>503 Service Unavailable</body></html>"},
           {"spot_action", "<html>oops</html>"},
           {"rebalance", "{\"noticeTime\": "}});
  start();
  CHECK(triggers(3 * poll_interval).empty());
  command({{"lifecycle_state", "Warmed:Pending"}, {"spot_action", "{\"action\": \"stop\"}"}});
  CHECK(triggers(3 * poll_interval).empty());
  command({{"spot_action", "{\"action\": \"terminate\", \"time\": \"yesterday\"}"}});
  CHECK(triggers(3 * poll_interval).empty());
  // No token to be had: polls are skipped (IMDSv1 fallback is off), reads never go out.
  command({{"token_status", 500}, {"revoke_tokens", true}});
  const auto without_token = requests_until(
      [](const auto& seen) { return count(seen, "PUT", "/latest/api/token", 500) >= 3; });
  CHECK(count(without_token, "PUT", "/latest/api/token", 500) == 3);
  for (const auto& request : without_token)
    CHECK((request["method"] == "PUT" || request["status"] == 401));
  CHECK(triggers(0ms).empty());
  // Still alive and watching: a real notice, once the service recovers, drains.
  command({{"token_status", nullptr},
           {"spot_action", "{\"action\": \"terminate\", \"time\": \"2030-01-01T00:02:00Z\"}"}});
  lifecycle_trigger trigger;
  CHECK(time_to_trigger(trigger) < line_wait_max);
  CHECK(trigger.source == trigger_source::spot_interruption);
  CHECK(trigger.deadline == *parse_rfc3339("2030-01-01T00:01:30Z"));
  CHECK(triggers(3 * poll_interval).empty());
}

TEST_CASE("plan_aws_watcher names a bad endpoint", "[imds][integration]") {
  aws_settings settings;
  const auto bad =
      plan_aws_watcher(settings, {{"AWS_EC2_METADATA_SERVICE_ENDPOINT", "169.254.169.254"}}, 1);
  CHECK_FALSE(bad.wiring);
  CHECK(bad.error ==
        "AWS_EC2_METADATA_SERVICE_ENDPOINT \"169.254.169.254\" must start with "
        "http:// or https://");
}

// EC2 scheduled maintenance events: the page is read on a cadence of its own,
// slower than the poll, and an instance-stop on it drains with NotBefore minus the margin.
TEST_CASE_METHOD(imds_fixture,
                 "a scheduled instance-stop drains, and its page keeps its own cadence",
                 "[imds][integration]") {
  const std::string scheduled_path = "/latest/meta-data/events/maintenance/scheduled";
  command({{"lifecycle_state", "InService"}});
  aws_settings settings;
  settings.scheduled_events_interval = 3 * poll_interval;
  start(settings);
  REQUIRE(identity(line_wait_max));
  const auto seen = requests_until(
      [&](const auto& so_far) { return count(so_far, "GET", scheduled_path, 404) >= 3; });
  REQUIRE(count(seen, "GET", scheduled_path, 404) == 3);
  // Polls come at least poll_interval apart, so between two reads of the page at least two
  // polls read only the other pages, however loaded the machine.
  std::size_t polls_between = 0, reads = 0;
  for (const auto& request : seen) {
    if (request["path"] == scheduled_path) {
      if (reads++ > 0) CHECK(polls_between >= 2);
      polls_between = 0;
    } else if (request["path"] == state_path) {
      ++polls_between;
    }
  }
  command({{"scheduled_events",
            R"([{"NotBefore": "1 Jan 2030 00:10:00 GMT", "Code": "instance-stop",
                 "Description": "The instance is running on degraded hardware",
                 "EventId": "instance-event-0d59937288b749b32", "State": "active"}])"}});
  lifecycle_trigger trigger;
  CHECK(time_to_trigger(trigger) < line_wait_max);
  CHECK(trigger.source == trigger_source::ec2_scheduled_maintenance);
  CHECK(trigger.deadline == *parse_rfc3339("2030-01-01T00:09:30Z"));
  CHECK(trigger.reason ==
        "EC2 scheduled event instance-stop (instance-event-0d59937288b749b32) "
        "not before Tue, 01 Jan 2030 00:10:00 GMT");
  // Read again, the same event drains nothing more.
  const auto again = requests_until(
      [&](const auto& so_far) { return count(so_far, "GET", scheduled_path, 200) >= 2; });
  CHECK(count(again, "GET", scheduled_path, 200) == 2);
  CHECK(triggers(0ms).empty());
}
