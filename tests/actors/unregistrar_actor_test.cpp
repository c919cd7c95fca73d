// The unregistrar in virtual time, with a scripted HTTP port: the script answers each
// request from a queue per URL (unscripted: 204 for a DELETE, an empty list for a GET) and
// writes down every request with its virtual time. Time moves from timer to timer
// (trigger_timeout), so a request sent after a wait is recorded at exactly the wait's end.
// The tests check when attempts happen (backoff, Retry-After, a rate-limit reset read from
// a fake wall clock that runs with virtual time), what the listener hears, that nothing is
// asked again once a runner is done, and that a restarted unregistrar counts a second
// DELETE's 404 or 403 as done.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <memory>

#include "actors/unregistrar/unregistrar_actor.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr std::uint64_t seed = 20261122;
const std::chrono::system_clock::time_point wall_start{std::chrono::seconds{1'800'000'000}};

struct recorded_request {
  caf::timespan at;
  http_request request;
};

struct port_script {
  caf::actor_clock::time_point start;
  std::map<std::string, std::deque<http_response>> answers;  // by method + " " + url
  std::vector<recorded_request> requests;

  void queue(const std::string& key, http_response answer, std::size_t times = 1) {
    for (std::size_t i = 0; i < times; ++i) answers[key].push_back(answer);
  }
  std::vector<caf::timespan> times_of(const std::string& method) const {
    std::vector<caf::timespan> times;
    for (const auto& recorded : requests)
      if (recorded.request.method == method) times.push_back(recorded.at);
    return times;
  }
};

http_response status(int code, http_header_list headers = {}, std::string body = {}) {
  return {.status_code = code, .body = std::move(body), .headers = std::move(headers)};
}

http_port_actor::behavior_type scripted_http_port(http_port_actor::pointer self,
                                                  std::shared_ptr<port_script> script) {
  return {
      [=](const host_lookup&) {},
      [=](const http_request& request) {
        script->requests.push_back({self->clock().now() - script->start, request});
        http_response response = request.method == "GET"
                                     ? status(200, {}, R"({"total_count":0,"runners":[]})")
                                     : status(204);
        auto& queued = script->answers[request.method + " " + request.url];
        if (!queued.empty()) {
          response = queued.front();
          queued.pop_front();
        }
        response.id = request.id;
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), response);
      },
  };
}

struct heard {
  std::vector<runner_unregister_status> statuses;
  std::vector<unregister_finished> finished;
};

unregistrar_listener_actor::behavior_type listening(unregistrar_listener_actor::pointer,
                                                    std::shared_ptr<heard> record) {
  return {
      [=](const runner_unregister_status& status) { record->statuses.push_back(status); },
      [=](const unregister_finished& finished) { record->finished.push_back(finished); },
  };
}

class unregistrar_fixture : public testing::deterministic_fixture {
 public:
  unregistrar_fixture()
      : scheduler_(dynamic_cast<caf::scheduler::test_coordinator&>(system().scheduler())) {
    script_->start = scheduler_.clock().now();
    port_ = spawn(scripted_http_port, script_);
    listener_ = spawn(listening, heard_);
  }

  unregistrar_wiring wiring(std::vector<unregister_target> targets) {
    const auto start = script_->start;
    auto& clock = scheduler_.clock();
    return {.http_port = port_,
            .listener = listener_,
            .targets = std::move(targets),
            .limits = {.retry_initial = 1s, .retry_max = 8s, .attempts_max = 0},
            .timeout = 5s,
            .random_seed = seed,
            .clock =
                [start, &clock] {
                  return wall_start +
                         std::chrono::duration_cast<std::chrono::system_clock::duration>(
                             clock.now() - start);
                },
            .user_agent = "runwarden/test"};
  }

  unregistrar_implementation start(std::vector<unregister_target> targets) {
    auto unregistrar = spawn(unregistrar_behavior, wiring(std::move(targets)));
    run();
    return unregistrar;
  }

  // Fires timers one by one until none is left or `steps` fired.
  void run_timers(std::size_t steps = 1000) {
    for (std::size_t i = 0; i < steps && scheduler_.clock().has_pending_timeout(); ++i) {
      scheduler_.clock().trigger_timeout();
      run();
    }
  }

  // The backoff waits the unregistrar draws for attempts 1..n with its seed, assuming each
  // wait is the schedule's own backoff (no server wait, no rate limit).
  static std::vector<caf::timespan> backoff_waits(std::uint32_t n) {
    std::uint64_t random_state = seed;
    std::vector<caf::timespan> waits;
    for (std::uint32_t attempt = 1; attempt <= n; ++attempt)
      waits.push_back(capped_backoff(1s, 8s, attempt, 0.2, next_unit_random(random_state)));
    return waits;
  }

  caf::scheduler::test_coordinator& scheduler_;
  std::shared_ptr<port_script> script_ = std::make_shared<port_script>();
  std::shared_ptr<heard> heard_ = std::make_shared<heard>();
  http_port_actor port_;
  unregistrar_listener_actor listener_;
};

const std::string manager_delete = "DELETE https://gitlab.example.com/api/v4/runners/managers";
const std::string github_list =
    "GET https://api.github.com/repos/acme/widgets/actions/runners?name=box-1&per_page=100&page=1";
const std::string github_delete =
    "DELETE https://api.github.com/repos/acme/widgets/actions/runners/77";
const std::string listed = R"({"total_count":1,"runners":[{"id":77,"name":"box-1"}]})";

gitlab_runner manager(std::string name = "build-1") {
  return {std::move(name), "https://gitlab.example.com", "glrt-TopSecret", "s_0123456789ab"};
}

github_runner repo_runner() {
  github_runner runner;
  runner.owner = "acme";
  runner.repo = "widgets";
  runner.runner_name = "box-1";
  runner.token = "ghp_TopSecret";
  return runner;
}

}  // namespace

TEST_CASE_METHOD(unregistrar_fixture, "gitlab: 5xx and timeouts retry on the backoff schedule",
                 "[unregister][actor]") {
  script_->queue(manager_delete, status(500), 2);
  script_->queue(manager_delete, {.transport_error = "Operation timed out"});
  script_->queue(manager_delete, status(503, {}, "<html>down</html>"));
  start({manager()});
  run_timers();
  const auto times = script_->times_of("DELETE");
  REQUIRE(times.size() == 5);
  const auto waits = backoff_waits(4);
  CHECK(times[0] == 0s);
  for (std::size_t i = 1; i < times.size(); ++i) CHECK(times[i] - times[i - 1] == waits[i - 1]);
  CHECK(script_->requests.back().request.body == "token=glrt-TopSecret&system_id=s_0123456789ab");
  CHECK(script_->requests.back().request.timeout == 5s);
  REQUIRE(heard_->statuses.size() == 6);
  CHECK(heard_->statuses[0].state == unregister_state::pending);
  CHECK(heard_->statuses[0].runner == "gitlab runner \"build-1\" at https://gitlab.example.com");
  CHECK(heard_->statuses[3].state == unregister_state::retrying);
  CHECK(heard_->statuses[3].attempts == 3);
  CHECK_THAT(heard_->statuses[3].detail, Catch::Contains("Operation timed out"));
  CHECK(heard_->statuses[5].state == unregister_state::done);
  CHECK(heard_->statuses[5].how == unregister_how::unregistered);
  REQUIRE(heard_->finished.size() == 1);
  CHECK(heard_->finished[0].runners.at(0).attempts == 5);
  for (const auto& status : heard_->statuses)
    CHECK(status.detail.find("TopSecret") == std::string::npos);
}

TEST_CASE_METHOD(unregistrar_fixture, "gitlab: a wrong token keeps retrying, reported each time",
                 "[unregister][actor]") {
  script_->queue(manager_delete, status(401, {}, R"({"message":"401 Unauthorized"})"), 30);
  start({manager()});
  run_timers(20);
  CHECK(script_->times_of("DELETE").size() == 21);
  CHECK(heard_->finished.empty());
  CHECK(heard_->statuses.back().state == unregister_state::retrying);
  CHECK_THAT(heard_->statuses.back().detail, Catch::Contains("HTTP 401"));
  // The waits stop growing at retry_max.
  const auto times = script_->times_of("DELETE");
  CHECK(times[20] - times[19] <= 8s);
  CHECK(times[20] - times[19] >= 6400ms);
}

TEST_CASE_METHOD(unregistrar_fixture, "gitlab: 429 waits for its Retry-After, 403 is done",
                 "[unregister][actor]") {
  script_->queue(manager_delete, status(429, {{"retry-after", "37"}}));
  script_->queue(manager_delete, status(403, {}, R"({"message":"403 Forbidden"})"));
  start({manager()});
  run_timers();
  CHECK(script_->times_of("DELETE") == std::vector<caf::timespan>{0s, 37s});
  REQUIRE(heard_->finished.size() == 1);
  CHECK(heard_->finished[0].runners.at(0).how == unregister_how::already_gone);
}

TEST_CASE_METHOD(unregistrar_fixture, "several runners finish only when the last one is done",
                 "[unregister][actor]") {
  auto second = manager("build-2");
  second.token = "LegacyToken";
  const std::string legacy_delete = "DELETE https://gitlab.example.com/api/v4/runners";
  script_->queue(legacy_delete, status(502), 3);
  start({manager(), second});
  REQUIRE(heard_->statuses.size() == 4);  // both pending, then the first done at once
  CHECK(heard_->statuses[2].state == unregister_state::done);
  CHECK(heard_->statuses[3].state == unregister_state::retrying);
  CHECK(heard_->finished.empty());
  run_timers();
  REQUIRE(heard_->finished.size() == 1);
  const auto& runners = heard_->finished[0].runners;
  REQUIRE(runners.size() == 2);
  CHECK(runners[0].attempts == 1);
  CHECK(runners[1].attempts == 4);
  CHECK(script_->times_of("DELETE").size() == 5);
}

TEST_CASE_METHOD(unregistrar_fixture, "a configured attempts_max ends in failed",
                 "[unregister][actor]") {
  script_->queue(manager_delete, status(500), 10);
  auto wired = wiring({manager()});
  wired.limits.attempts_max = 3;
  spawn(unregistrar_behavior, std::move(wired));
  run();
  run_timers();
  CHECK(script_->times_of("DELETE").size() == 3);
  REQUIRE(heard_->finished.size() == 1);
  CHECK(heard_->finished[0].runners.at(0).state == unregister_state::failed);
}

TEST_CASE_METHOD(unregistrar_fixture, "github: 422 busy is waited out, then one DELETE is done",
                 "[unregister][actor]") {
  script_->queue(github_list, status(200, {}, listed), 10);
  script_->queue(github_delete, status(422, {}, R"({"message":"Runner is still running a job"})"),
                 3);
  start({repo_runner()});
  run_timers();
  const auto deletes = script_->times_of("DELETE");
  REQUIRE(deletes.size() == 4);
  CHECK(script_->times_of("GET") == deletes);  // each attempt looks the id up afresh
  const auto waits = backoff_waits(3);
  for (std::size_t i = 1; i < deletes.size(); ++i)
    CHECK(deletes[i] - deletes[i - 1] == waits[i - 1]);
  const auto& request = script_->requests.back().request;
  CHECK(request.url == "https://api.github.com/repos/acme/widgets/actions/runners/77");
  const http_header_list expected_headers{{"accept", "application/vnd.github+json"},
                                          {"authorization", "Bearer ghp_TopSecret"},
                                          {"x-github-api-version", "2022-11-28"},
                                          {"user-agent", "runwarden/test"}};
  CHECK(request.headers == expected_headers);
  REQUIRE(heard_->finished.size() == 1);
  CHECK(heard_->finished[0].runners.at(0).how == unregister_how::unregistered);
  CHECK_THAT(heard_->statuses.at(1).detail, Catch::Contains("still running a job"));
  // Nothing more is asked once done, however long we wait.
  advance(24h);
  CHECK(script_->times_of("DELETE").size() == 4);
}

TEST_CASE_METHOD(unregistrar_fixture, "github: rate limits honour retry-after, then the reset",
                 "[unregister][actor]") {
  const auto reset_epoch =
      std::chrono::duration_cast<std::chrono::seconds>(wall_start.time_since_epoch()).count() + 300;
  script_->queue(github_list, status(429, {{"retry-after", "45"}}));
  script_->queue(github_list, status(403,
                                     {{"x-ratelimit-remaining", "0"},
                                      {"x-ratelimit-reset", std::to_string(reset_epoch)}},
                                     R"({"message":"API rate limit exceeded"})"));
  script_->queue(github_list, status(403, {}, R"({"message":"secondary rate limit"})"));
  script_->queue(github_list, status(200, {}, listed));
  start({repo_runner()});
  run_timers();
  CHECK(script_->times_of("GET") == std::vector<caf::timespan>{0s, 45s, 300s, 360s});
  CHECK(script_->times_of("DELETE") == std::vector<caf::timespan>{360s});
  REQUIRE(heard_->finished.size() == 1);
}

TEST_CASE_METHOD(unregistrar_fixture, "github: pages are followed to find the runner",
                 "[unregister][actor]") {
  const std::string page_one = R"({"total_count":101,"runners":[{"id":5,"name":"box-10"}]})";
  script_->queue(github_list, status(200, {}, page_one));
  auto second_page = github_list;
  second_page.back() = '2';
  script_->queue(second_page, status(200, {}, listed));
  start({repo_runner()});
  CHECK(script_->requests.size() == 3);
  CHECK(script_->requests.at(2).request.url.ends_with("/actions/runners/77"));
  REQUIRE(heard_->finished.size() == 1);
}

TEST_CASE_METHOD(unregistrar_fixture, "a restarted unregistrar counts 404 and 403 as done",
                 "[unregister][actor]") {
  script_->queue(github_list, status(200, {}, listed));
  script_->queue(github_delete, status(404, {}, R"({"message":"Not Found"})"));
  script_->queue(manager_delete, status(204));
  script_->queue(manager_delete, status(403));
  start({repo_runner()});
  start({manager()});
  start({manager()});
  start({repo_runner()});  // the list no longer has it: done without a DELETE
  CHECK(script_->times_of("DELETE").size() == 3);
  REQUIRE(heard_->finished.size() == 4);
  const unregister_how expected[] = {unregister_how::already_gone, unregister_how::unregistered,
                                     unregister_how::already_gone, unregister_how::already_gone};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(heard_->finished[i].runners.at(0).state == unregister_state::done);
    CHECK(heard_->finished[i].runners.at(0).how == expected[i]);
  }
}

TEST_CASE_METHOD(unregistrar_fixture, "stale and unknown answers are dropped",
                 "[unregister][actor]") {
  script_->queue(manager_delete, status(500));
  auto unregistrar = start({manager()});
  caf::anon_send(unregistrar, status(204));  // id 0: nobody waits for it
  http_response stale = status(204);
  stale.id = 1;  // the first request, already answered
  caf::anon_send(unregistrar, stale);
  run();
  CHECK(heard_->finished.empty());
  run_timers();
  CHECK(script_->times_of("DELETE").size() == 2);
  CHECK(heard_->finished.size() == 1);
}
