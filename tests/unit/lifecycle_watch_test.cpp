// What the watched metadata pages mean, answer by answer: each test feeds a sequence of
// answers as the poller would (one per poll) and checks the triggers and reports. The
// property under test throughout is the latch: a level seen on many polls gives one
// trigger, and nothing that fails to parse ever gives one.
#include <catch2/catch.hpp>

#include "src/aws/imds/lifecycle_trigger_request.hpp"
#include "src/aws/imds/lifecycle_watch.hpp"
#include "src/util/rfc3339_time.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

imds_answer ok(std::string body) { return {200, std::move(body), {}, {}}; }
imds_answer status(int code) { return {code, "<html>error</html>", {}, {}}; }
imds_answer no_answer() { return {std::nullopt, {}, "Connection refused", {}}; }

std::vector<std::string> texts(const watch_outcome& outcome) {
  std::vector<std::string> seen;
  for (const auto& report : outcome.reports) seen.push_back(report.text);
  return seen;
}

const std::string state_page = "/latest/meta-data/autoscaling/target-lifecycle-state";
const std::string spot_page = "/latest/meta-data/spot/instance-action";

}  // namespace

TEST_CASE("Terminated drains once, later polls of the same level are silent", "[imds]") {
  lifecycle_watch watch{{}};
  CHECK(texts(watch.on_lifecycle_state(status(404))).empty());
  const auto in_service = watch.on_lifecycle_state(ok("InService"));
  CHECK_FALSE(in_service.trigger);
  CHECK(texts(in_service) ==
        std::vector<std::string>{"Auto Scaling target lifecycle state is InService"});
  CHECK(texts(watch.on_lifecycle_state(ok("InService"))).empty());
  const auto terminated = watch.on_lifecycle_state(ok("Terminated"));
  REQUIRE(terminated.trigger);
  CHECK(*terminated.trigger == lifecycle_trigger{trigger_source::cloud_lifecycle, std::nullopt,
                                                 "Auto Scaling target lifecycle state is "
                                                 "Terminated"});
  for (int poll = 0; poll < 5; ++poll) {
    const auto again = watch.on_lifecycle_state(ok("Terminated"));
    CHECK_FALSE(again.trigger);
    CHECK(again.reports.empty());
  }
  // The latch holds across other states too: one drain per watcher.
  CHECK_FALSE(watch.on_lifecycle_state(ok("Warmed:Terminated")).trigger);
  CHECK(watch.last_state() == target_lifecycle_state::warmed_terminated);
}

TEST_CASE("which states drain is policy", "[imds]") {
  const auto drains = [](lifecycle_watch_policy policy, const char* state) {
    lifecycle_watch watch{std::move(policy)};
    return watch.on_lifecycle_state(ok(state)).trigger.has_value();
  };
  const lifecycle_watch_policy defaults;
  CHECK(drains(defaults, "Terminated"));
  CHECK(drains(defaults, "Warmed:Terminated"));
  for (const char* state : {"InService", "Detached", "Standby", "Warmed:Stopped", "Warmed:Running",
                            "Warmed:Hibernated"}) {
    CAPTURE(state);
    CHECK_FALSE(drains(defaults, state));
  }
  lifecycle_watch_policy detached_too;
  detached_too.drain_states = {target_lifecycle_state::detached};
  CHECK(drains(detached_too, "Detached"));
  CHECK_FALSE(drains(detached_too, "Terminated"));
}

TEST_CASE("unknown states are warned about once each and never drain", "[imds]") {
  lifecycle_watch watch{{}};
  const auto first = watch.on_lifecycle_state(ok("Terminating:Wait"));
  CHECK_FALSE(first.trigger);
  CHECK(texts(first) == std::vector<std::string>{"unknown target lifecycle state "
                                                 "\"Terminating:Wait\"; it does not start a "
                                                 "drain"});
  CHECK(watch.on_lifecycle_state(ok("Terminating:Wait")).reports.empty());
  CHECK(texts(watch.on_lifecycle_state(ok("<html>\x01</html>"))) ==
        std::vector<std::string>{"unknown target lifecycle state \"<html>?</html>\"; it does "
                                 "not start a drain"});
  CHECK(watch.on_lifecycle_state(ok("Terminating:Wait")).reports.empty());
  // A long page is quoted short.
  const auto long_page = texts(watch.on_lifecycle_state(ok(std::string(500, 'x'))));
  REQUIRE(long_page.size() == 1);
  CHECK_THAT(long_page[0], Catch::Contains("\"" + std::string(64, 'x') + "...\""));
  // Bounded memory: past the limit, new values are not warned about, and still never drain.
  for (int value = 0; value < 20; ++value)
    CHECK_FALSE(watch.on_lifecycle_state(ok("Odd" + std::to_string(value))).trigger);
  CHECK(watch.on_lifecycle_state(ok("Odd19")).reports.empty());
  CHECK(watch.on_lifecycle_state(ok("Terminated")).trigger);
}

TEST_CASE("a failing page is reported when its problem changes and when it recovers", "[imds]") {
  lifecycle_watch watch{{}};
  CHECK(texts(watch.on_lifecycle_state(no_answer())) ==
        std::vector<std::string>{state_page + ": no answer: Connection refused"});
  CHECK(watch.on_lifecycle_state(no_answer()).reports.empty());
  // libcurl words each timeout with its own milliseconds; still one outage, one line.
  CHECK(watch.on_lifecycle_state({std::nullopt, {}, "Operation timed out after 1001 ms", {}})
            .reports.empty());
  CHECK(texts(watch.on_lifecycle_state(status(500))) ==
        std::vector<std::string>{state_page + ": unexpected HTTP 500"});
  CHECK(watch.on_lifecycle_state(status(500)).reports.empty());
  CHECK(texts(watch.on_lifecycle_state(status(404))) ==
        std::vector<std::string>{state_page + ": answers again"});
  CHECK(watch.on_lifecycle_state(status(404)).reports.empty());
}

TEST_CASE("a spot notice drains once with its time minus the safety margin", "[imds]") {
  lifecycle_watch_policy policy;
  policy.spot_safety_margin = 45s;
  lifecycle_watch watch{policy};
  CHECK_FALSE(watch.on_spot_action(status(404)).trigger);
  const auto notice =
      watch.on_spot_action(ok(R"({"action": "terminate", "time": "2017-09-18T08:22:00Z"})"));
  REQUIRE(notice.trigger);
  CHECK(notice.trigger->source == trigger_source::spot_interruption);
  CHECK(notice.trigger->deadline == *parse_rfc3339("2017-09-18T08:21:15Z"));
  CHECK(notice.trigger->reason == "spot instance-action \"terminate\" at 2017-09-18T08:22:00.000Z");
  CHECK_FALSE(watch.on_spot_action(ok(R"({"action": "terminate", "time": "2017-09-18T08:22:00Z"})"))
                  .trigger);
}

TEST_CASE("a malformed spot notice is an error, not a drain, until it reads", "[imds]") {
  lifecycle_watch watch{{}};
  const auto html = watch.on_spot_action(ok("<html><h1>502 Bad Gateway</h1></html>"));
  CHECK_FALSE(html.trigger);
  CHECK(texts(html) == std::vector<std::string>{"spot instance-action is not JSON (an error "
                                                "page from a proxy?); no drain until it reads"});
  CHECK(watch.on_spot_action(ok("<html><h1>502 Bad Gateway</h1></html>")).reports.empty());
  const auto no_time = watch.on_spot_action(ok(R"({"action": "stop"})"));
  CHECK_FALSE(no_time.trigger);
  CHECK(texts(no_time) == std::vector<std::string>{"spot instance-action has no \"time\" "
                                                   "string; no drain until it reads"});
  const auto good =
      watch.on_spot_action(ok(R"({"action": "stop", "time": "2017-09-18T08:22:00Z"})"));
  CHECK(good.trigger);
  CHECK(texts(good) == std::vector<std::string>{spot_page + ": answers again"});
}

TEST_CASE("rebalance recommendations: ignored, logged once, or drained once", "[imds]") {
  const auto notice = ok(R"({"noticeTime": "2020-10-27T08:22:00Z"})");
  lifecycle_watch_policy policy;
  policy.rebalance = rebalance_action::ignore;
  lifecycle_watch ignoring{policy};
  CHECK(ignoring.on_rebalance(notice).reports.empty());
  CHECK(ignoring.on_rebalance(ok("garbage")).reports.empty());

  policy.rebalance = rebalance_action::log;
  lifecycle_watch logging{policy};
  const auto logged = logging.on_rebalance(notice);
  CHECK_FALSE(logged.trigger);
  CHECK(texts(logged) == std::vector<std::string>{"EC2 rebalance recommendation noticed at "
                                                  "2020-10-27T08:22:00.000Z (rebalance = "
                                                  "\"log\")"});
  CHECK(logging.on_rebalance(notice).reports.empty());

  policy.rebalance = rebalance_action::drain;
  lifecycle_watch draining{policy};
  CHECK_FALSE(draining.on_rebalance(ok("{}")).trigger);
  const auto drained = draining.on_rebalance(notice);
  REQUIRE(drained.trigger);
  CHECK(drained.trigger->source == trigger_source::rebalance_recommendation);
  CHECK_FALSE(drained.trigger->deadline);
  CHECK_FALSE(draining.on_rebalance(notice).trigger);
}

TEST_CASE("rebalance actions read and print as the config writes them", "[imds]") {
  for (const auto action :
       {rebalance_action::ignore, rebalance_action::log, rebalance_action::drain})
    CHECK(parse_rebalance_action(to_string(action)) == action);
  CHECK_FALSE(parse_rebalance_action("Drain"));
}

TEST_CASE("a trigger becomes the drain machine's event on its clock", "[imds]") {
  const auto wall_now = *parse_rfc3339("2017-09-18T08:20:00Z");
  const lifecycle_trigger spot{trigger_source::spot_interruption,
                               *parse_rfc3339("2017-09-18T08:21:30Z"), "spot"};
  const auto request = as_shutdown_request(spot, instant{1000s}, wall_now);
  CHECK(request.source == trigger_source::spot_interruption);
  CHECK(request.deadline == instant{1090s});
  CHECK(request.reason == "spot");
  const lifecycle_trigger lifecycle{trigger_source::cloud_lifecycle, std::nullopt, "asg"};
  CHECK_FALSE(as_shutdown_request(lifecycle, instant{5s}, wall_now).deadline);
}
