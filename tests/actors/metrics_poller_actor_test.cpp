// The metrics poller in virtual time against a scripted HTTP port: it scrapes on its
// interval, one request at a time, and tells its listener the runner's job count only when
// that changes; a failed or garbled scrape turns the count into "unknown", never zero.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>

#include "actors/metrics_poller/metrics_poller_actor.hpp"
#include "messages/metrics_messages.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

const std::string url = "http://127.0.0.1:9252/metrics";

std::string page_with_jobs(int jobs) {
  return "# TYPE gitlab_runner_jobs gauge\n"
         "gitlab_runner_jobs{executor_stage=\"\",runner=\"abc\",stage=\"\",state=\"\"} 0\n"
         "gitlab_runner_jobs{executor_stage=\"step_script\",runner=\"abc\",stage=\"\","
         "state=\"running\"} " +
         std::to_string(jobs) +
         "\n"
         "# TYPE gitlab_runner_concurrent gauge\ngitlab_runner_concurrent 4\n";
}

struct port_script {
  std::deque<http_response> answers;  // id filled in; an empty script answers refused
  std::vector<caf::timespan> asked_at;
  caf::actor_clock::time_point start;
};

http_port_actor::behavior_type scripted_port(http_port_actor::pointer self,
                                             std::shared_ptr<port_script> script) {
  return {
      [](const host_lookup&) {},
      [=](const http_request& request) {
        script->asked_at.push_back(self->clock().now() - script->start);
        http_response response{.id = request.id, .transport_error = "Connection refused"};
        if (!script->answers.empty()) {
          response = script->answers.front();
          response.id = request.id;
          script->answers.pop_front();
        }
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), response);
      },
  };
}

metrics_listener_actor::behavior_type load_recorder(
    metrics_listener_actor::pointer,
    std::shared_ptr<std::vector<std::optional<std::uint32_t>>> heard) {
  return {
      [=](const runner_load_observed& load) { heard->push_back(load.jobs_running); },
      [](subscribe_atom, const status_subscriber_actor&) {},
  };
}

http_response ok(std::string body) { return {.status_code = 200, .body = std::move(body)}; }

// A poller (interval 5 s) against the script, its listener recording what it heard.
std::shared_ptr<std::vector<std::optional<std::uint32_t>>> start_poller(
    runwarden::testing::deterministic_fixture& fixture, std::shared_ptr<port_script> script) {
  script->start = fixture.system().clock().now();
  auto heard = std::make_shared<std::vector<std::optional<std::uint32_t>>>();
  auto listener = fixture.spawn(load_recorder, heard);
  auto port = fixture.spawn(scripted_port, script);
  fixture.spawn(
      metrics_poller_behavior,
      metrics_poller_wiring{
          .url = url, .interval = 5s, .timeout = 2s, .http_port = port, .listener = listener});
  fixture.run();
  return heard;
}

}  // namespace

TEST_CASE("the poller reports job counts as they change, and unknown when scrapes fail",
          "[metrics_poller]") {
  runwarden::testing::deterministic_fixture fixture;
  auto script = std::make_shared<port_script>();
  script->answers = {ok(page_with_jobs(2)),
                     ok(page_with_jobs(2)),
                     ok(page_with_jobs(0)),
                     {.status_code = 503, .body = "<html>"},
                     ok("garbage {"),
                     ok(page_with_jobs(1)),
                     ok("# TYPE other gauge\nother 1\n")};
  const auto heard = start_poller(fixture, script);
  for (int i = 0; i < 7; ++i) fixture.advance(5s);
  CHECK(*heard ==
        std::vector<std::optional<std::uint32_t>>{2u, 0u, std::nullopt, 1u, std::nullopt});
  REQUIRE(script->asked_at.size() == 8);
  for (std::size_t i = 0; i < script->asked_at.size(); ++i)
    CHECK(script->asked_at[i] == caf::timespan{5s} * static_cast<int>(i));
}

TEST_CASE(
    "until the runner first answers, a failed scrape is retried quickly, then the "
    "interval applies",
    "[metrics_poller]") {
  runwarden::testing::deterministic_fixture fixture;
  auto script = std::make_shared<port_script>();
  const http_response refused{.transport_error = "Connection refused"};
  script->answers = {
      refused, refused, refused, ok(page_with_jobs(1)), refused, ok(page_with_jobs(1))};
  const auto heard = start_poller(fixture, script);
  for (int i = 0; i < 3; ++i) fixture.advance(first_answer_retry);
  for (int i = 0; i < 2; ++i) fixture.advance(5s);
  const std::vector<caf::timespan> expected{0ms, 250ms, 500ms, 750ms, 5750ms, 10750ms};
  CHECK(script->asked_at == expected);
  CHECK(*heard == std::vector<std::optional<std::uint32_t>>{std::nullopt, 1u, std::nullopt, 1u});
}

TEST_CASE("a runner that never answers gets quick tries only for a while", "[metrics_poller]") {
  runwarden::testing::deterministic_fixture fixture;
  auto script = std::make_shared<port_script>();  // empty: every scrape is refused
  start_poller(fixture, script);
  for (std::uint32_t i = 0; i < first_answer_retries_max; ++i) fixture.advance(first_answer_retry);
  REQUIRE(script->asked_at.size() == first_answer_retries_max + 1);
  fixture.advance(5s);
  REQUIRE(script->asked_at.size() == first_answer_retries_max + 2);
  CHECK(script->asked_at.back() - script->asked_at[first_answer_retries_max] == caf::timespan{5s});
}

namespace {

// The warden's side of a subscription: it keeps its subscriber, and records what it heard.
struct fake_warden_record {
  status_subscriber_actor subscriber;
  std::vector<std::optional<std::uint32_t>> heard;
};

metrics_listener_actor::behavior_type fake_warden(metrics_listener_actor::pointer,
                                                  std::shared_ptr<fake_warden_record> record) {
  return {
      [=](subscribe_atom, const status_subscriber_actor& subscriber) {
        record->subscriber = subscriber;
      },
      [=](const runner_load_observed& load) { record->heard.push_back(load.jobs_running); },
  };
}

warden_snapshot snapshot_in(warden_status status) {
  warden_snapshot snapshot;
  snapshot.status = status;
  return snapshot;
}

}  // namespace

TEST_CASE("while the runner drains the poller scrapes at once, then at the draining interval",
          "[metrics_poller]") {
  runwarden::testing::deterministic_fixture fixture;
  auto script = std::make_shared<port_script>();
  for (int jobs : {3, 3, 2, 1, 0, 0}) script->answers.push_back(ok(page_with_jobs(jobs)));
  script->start = fixture.system().clock().now();
  auto record = std::make_shared<fake_warden_record>();
  auto warden = fixture.spawn(fake_warden, record);
  auto port = fixture.spawn(scripted_port, script);
  auto poller =
      fixture.spawn(metrics_poller_behavior, metrics_poller_wiring{.url = url,
                                                                   .interval = 5s,
                                                                   .timeout = 2s,
                                                                   .http_port = port,
                                                                   .listener = warden,
                                                                   .interval_draining = 1s});
  fixture.run();
  REQUIRE(record->subscriber == poller);
  caf::anon_send(poller, snapshot_in(warden_status::running));
  fixture.advance(5s);  // the interval while running
  fixture.advance(2s);
  caf::anon_send(poller, snapshot_in(warden_status::shutting_down));
  fixture.run();  // scraped at once, at 7 s
  fixture.advance(1s);
  fixture.advance(1s);
  fixture.advance(1s);  // 8, 9 and 10 s; the poll left from before (10 s) is not a second one
  const std::vector<caf::timespan> expected{0s, 5s, 7s, 8s, 9s, 10s};
  CHECK(script->asked_at == expected);
  CHECK(record->heard == std::vector<std::optional<std::uint32_t>>{3u, 2u, 1u, 0u});
}

TEST_CASE("without a draining interval the poller follows no warden", "[metrics_poller]") {
  runwarden::testing::deterministic_fixture fixture;
  auto script = std::make_shared<port_script>();
  script->answers = {ok(page_with_jobs(1))};
  auto record = std::make_shared<fake_warden_record>();
  auto warden = fixture.spawn(fake_warden, record);
  auto port = fixture.spawn(scripted_port, script);
  fixture.spawn(
      metrics_poller_behavior,
      metrics_poller_wiring{.url = url, .interval = 5s, .http_port = port, .listener = warden});
  fixture.run();
  CHECK_FALSE(record->subscriber);
  CHECK(record->heard == std::vector<std::optional<std::uint32_t>>{1u});
}
