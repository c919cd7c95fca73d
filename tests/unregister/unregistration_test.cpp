// Unregistration with nothing faked on our side: the real unregistrar on the real libcurl
// port and CAF's real scheduler, against fake GitLab and GitHub APIs (fake_ci_api.py on
// 127.0.0.1) that behave like the real ones once their injected faults (500s, HTML pages,
// 429 with Retry-After, 422 busy, an answer slower than the timeout, wrong tokens) are
// spent. The fake writes down every request, so the tests check that unregistration
// completes once the faults clear, never earlier, and with exactly one successful DELETE;
// and that no log line or report carries a token. Waits are short real ones: exact timing
// is the actor tests' job.
#include <catch2/catch.hpp>

#include <spdlog/sinks/ostream_sink.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <sstream>

#include "actors/http_port/http_port_actor.hpp"
#include "actors/unregistrar/unregistrar_actor.hpp"
#include "src/logging/logging.hpp"
#include "tests/common/python_server.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

const std::string gitlab_token = "glrt-IntegrationSecret123";
const std::string github_token = "ghp_IntegrationSecret456";
const std::string system_id = "s_0123456789ab";

caf::actor_system_config& production_like(caf::actor_system_config& config) {
  config.set("scheduler.policy", caf::atom("sharing"));
  config.set("scheduler.max-threads", 2);
  return config;
}

// Everything the warden logger writes during the test, to search for tokens.
class captured_log {
 public:
  captured_log() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)) {
    warden_logger()->sinks().push_back(sink_);
  }
  ~captured_log() {
    auto& sinks = warden_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  std::string text() {
    warden_logger()->flush();
    return text_.str();
  }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

struct finished_run {
  std::vector<runner_unregister_status> statuses;
  std::optional<unregister_finished> finished;
};

class unregistration_fixture {
 public:
  unregistration_fixture() : system_(production_like(config_)) {}

  ~unregistration_fixture() {
    if (port_) caf::anon_send_exit(port_, caf::exit_reason::user_shutdown);
    worker_->stop();
  }

  void serve(const json& scenario) {
    api_.emplace(FAKE_CI_API_SCRIPT, std::vector<std::string>{scenario.dump()});
  }
  testing::python_server& api() { return *api_; }
  // What gitlab-runner's config.toml says each time the unregistrar reads it again.
  void read_token_with(std::function<token_reading(const gitlab_token_source&)> read) {
    read_token_ = std::move(read);
  }

  gitlab_runner gitlab(std::string token = gitlab_token) const {
    return {"build-1", api_->url("127.0.0.1", ""), std::move(token), system_id};
  }

  github_runner github(std::string token = github_token) const {
    github_runner runner;
    runner.api_url = api_->url("127.0.0.1", "/api/v3");
    runner.owner = "acme";
    runner.repo = "widgets";
    runner.runner_name = "box-1";
    runner.token = std::move(token);
    return runner;
  }

  // Runs one unregistrar to its end, or until `wait` passes; the listener is this thread.
  finished_run unregister(std::vector<unregister_target> targets,
                          std::chrono::milliseconds wait = 15s) {
    caf::scoped_actor listener{system_};
    auto unregistrar = system_.spawn(
        unregistrar_behavior,
        unregistrar_wiring{.http_port = port_,
                           .listener = caf::actor_cast<unregistrar_listener_actor>(listener),
                           .targets = std::move(targets),
                           .limits = {.retry_initial = 50ms, .retry_max = 200ms, .attempts_max = 0},
                           .timeout = 700ms,
                           .random_seed = 5,
                           .user_agent = "runwarden/test",
                           .read_token = read_token_});
    finished_run run;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    // A fresh timeout each round: `after` restarts with every message, and statuses keep
    // coming while the unregistrar retries.
    while (!run.finished && std::chrono::steady_clock::now() < deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      listener->receive(
          [&](const runner_unregister_status& status) { run.statuses.push_back(status); },
          [&](const unregister_finished& finished) { run.finished = finished; },
          caf::after(std::max(left, 1ms)) >> [] {});
    }
    caf::anon_send_exit(unregistrar, caf::exit_reason::user_shutdown);
    return run;
  }

 private:
  caf::actor_system_config config_;
  caf::actor_system system_;
  std::shared_ptr<http_worker> worker_ = std::make_shared<http_worker>();
  http_port_actor port_ = system_.spawn(http_port, worker_, nullptr);
  std::optional<testing::python_server> api_;
  std::function<token_reading(const gitlab_token_source&)> read_token_;
};

}  // namespace

namespace {

json scenario(json faults, int busy_calls = 0) {
  return {{"gitlab_token", gitlab_token},
          {"system_id", system_id},
          {"github_token", github_token},
          {"github_runner", {{"id", 77}, {"name", "box-1"}, {"busy_calls", busy_calls}}},
          {"faults", std::move(faults)}};
}

// No token in any report the listener heard, nor in anything logged.
void check_no_token(const finished_run& run, captured_log& log) {
  const auto text = log.text();
  CHECK_FALSE(text.empty());
  for (const auto& token : {gitlab_token, github_token, std::string{"IntegrationSecret"}}) {
    CHECK(text.find(token) == std::string::npos);
    for (const auto& status : run.statuses) CHECK(status.detail.find(token) == std::string::npos);
  }
}

std::vector<json> of_route(const std::vector<json>& requests, const std::string& route) {
  std::vector<json> found;
  for (const auto& request : requests)
    if (request["route"] == route) found.push_back(request);
  return found;
}

}  // namespace

TEST_CASE_METHOD(unregistration_fixture,
                 "gitlab: done once 500s, HTML, 429, a timeout and a 401 are over",
                 "[unregister][integration]") {
  captured_log log;
  const json faults = {{"gitlab_delete",
                        {{{"status", 500}},
                         {{"html", 502}},
                         {{"status", 429}, {"headers", {{"Retry-After", "1"}}}},
                         {{"slow", 2}},
                         {{"status", 401}, {"body", R"({"message":"401 Unauthorized"})"}}}}};
  serve(scenario(faults));
  const auto run = unregister({gitlab()});
  REQUIRE(run.finished);
  const auto& result = run.finished->runners.at(0);
  CHECK(result.state == unregister_state::done);
  CHECK(result.how == unregister_how::unregistered);
  CHECK(result.attempts == 6);
  const auto requests = api().requests(6);
  REQUIRE(requests.size() == 6);
  for (std::size_t i = 0; i < 5; ++i) CHECK(requests[i]["fault"] == true);
  CHECK(requests[5]["fault"] == false);
  CHECK(requests[5]["status"] == 204);
  CHECK(requests[5]["body"] == "token=" + gitlab_token + "&system_id=" + system_id);
  CHECK(requests[3]["time"].get<double>() - requests[2]["time"].get<double>() >= 0.95);
  // Each fault was reported as retrying, the timeout and the 401 by name.
  std::vector<std::string> details;
  for (const auto& status : run.statuses)
    if (status.state == unregister_state::retrying) details.push_back(status.detail);
  REQUIRE(details.size() == 5);
  CHECK_THAT(details[1], Catch::Contains("Bad Gateway"));
  CHECK_THAT(details[3], Catch::Contains("timed out"));
  CHECK_THAT(details[4], Catch::Contains("HTTP 401"));
  CHECK(api().requests(1, 500ms).empty());  // never a second DELETE after done
  check_no_token(run, log);
}

TEST_CASE_METHOD(unregistration_fixture,
                 "github: HTML and truncated lists, a rate limit, 422 busy, then one DELETE",
                 "[unregister][integration]") {
  captured_log log;
  const json faults = {
      {"github_list",
       {{{"status", 200}, {"body", "<html><body>proxy login</body></html>"}},
        {{"status", 200}, {"body", R"({"total_count": 1, "runners": [{"id": 77, "na)"}}}},
      {"github_delete",
       {{{"status", 403},
         {"headers", {{"Retry-After", "1"}}},
         {"body", R"({"message":"You have exceeded a secondary rate limit"})"}}}}};
  serve(scenario(faults, 3));
  const auto run = unregister({github()});
  REQUIRE(run.finished);
  CHECK(run.finished->runners.at(0).how == unregister_how::unregistered);
  const auto requests = api().requests(100, 500ms);
  const auto deletes = of_route(requests, "github_delete");
  REQUIRE(deletes.size() == 5);  // the rate limit, three busy answers, the removal
  CHECK(deletes[0]["status"] == 403);
  for (std::size_t i = 1; i < 4; ++i) CHECK(deletes[i]["status"] == 422);
  CHECK(deletes[4]["status"] == 204);
  CHECK(deletes[1]["time"].get<double>() - deletes[0]["time"].get<double>() >= 0.95);
  CHECK(deletes[4]["path"] == "/api/v3/repos/acme/widgets/actions/runners/77");
  CHECK(deletes[4]["headers"]["authorization"] == "Bearer " + github_token);
  CHECK(deletes[4]["headers"]["x-github-api-version"] == "2022-11-28");
  CHECK(of_route(requests, "github_list").size() == 7);  // one per attempt
  CHECK(requests.back()["route"] == "github_delete");
  check_no_token(run, log);
}

TEST_CASE_METHOD(unregistration_fixture,
                 "a wrong GitHub token never completes and never deletes, reported each time",
                 "[unregister][integration]") {
  captured_log log;
  serve(scenario(json::object()));
  const auto run = unregister({github("ghp_IntegrationSecretWrong")}, 1500ms);
  CHECK_FALSE(run.finished);
  REQUIRE(run.statuses.size() >= 3);
  CHECK(run.statuses.back().state == unregister_state::retrying);
  CHECK_THAT(run.statuses.back().detail, Catch::Contains("HTTP 401"));
  CHECK_THAT(log.text(), Catch::Contains("Bad credentials"));
  const auto requests = api().requests(100, 300ms);
  CHECK(requests.size() >= 3);
  CHECK(of_route(requests, "github_delete").empty());
  check_no_token(run, log);
}

TEST_CASE_METHOD(unregistration_fixture,
                 "a second run counts GitLab's 404 and 403 and GitHub's empty list as done",
                 "[unregister][integration]") {
  captured_log log;
  serve(scenario(json::object()));
  const auto first = unregister({gitlab(), github()});
  REQUIRE(first.finished);
  for (const auto& runner : first.finished->runners)
    CHECK(runner.how == unregister_how::unregistered);
  const auto second = unregister({gitlab(), github(), gitlab("glrt-IntegrationSecretOther")});
  REQUIRE(second.finished);
  for (const auto& runner : second.finished->runners)
    CHECK(runner.how == unregister_how::already_gone);
  const auto requests = api().requests(100, 300ms);
  CHECK(of_route(requests, "github_delete").size() == 1);
  const auto gitlab_deletes = of_route(requests, "gitlab_delete");
  REQUIRE(gitlab_deletes.size() == 3);
  CHECK(gitlab_deletes[1]["status"] == 404);
  CHECK(gitlab_deletes[2]["status"] == 403);
  CHECK_THAT(log.text(), Catch::Contains("counts as unregistered"));
  check_no_token(first, log);
  check_no_token(second, log);
}

// gitlab-runner rotated the token after the attempt read config.toml and before GitLab
// answered: the 403 is followed at once by the new token, in the same attempt.
TEST_CASE_METHOD(unregistration_fixture,
                 "gitlab: a 403 for a token rotated meanwhile is followed by the new token at once",
                 "[unregister][integration][token_rotation]") {
  captured_log log;
  const std::string rotated = "glrt-IntegrationSecretRotated";
  auto api_scenario = scenario(json::object());
  api_scenario["gitlab_token"] = rotated;
  serve(api_scenario);
  // Called on the unregistrar's thread: no Catch assertion in it.
  auto readings = std::make_shared<std::atomic<int>>(0);
  read_token_with([readings, rotated](const gitlab_token_source& source) {
    const bool first = ++*readings == 1 && source.config_path == "/etc/gitlab-runner/config.toml";
    return token_reading{
        token_reading_kind::found, secret_text{first ? gitlab_token : rotated}, {}};
  });
  auto runner = gitlab();
  runner.token_source = gitlab_token_source{"/etc/gitlab-runner/config.toml", {}};
  const auto run = unregister({runner});
  REQUIRE(run.finished);
  const auto& result = run.finished->runners.at(0);
  CHECK(result.how == unregister_how::unregistered);
  CHECK(result.attempts == 1);  // no wait, no second attempt: the same one, followed
  CHECK(*readings == 3);        // before the attempt, after the 403, before the DELETE again
  const auto deletes = of_route(api().requests(100, 300ms), "gitlab_delete");
  REQUIRE(deletes.size() == 2);
  CHECK(deletes[0]["status"] == 403);
  CHECK(deletes[1]["status"] == 204);
  CHECK(deletes[1]["body"] == "token=" + rotated + "&system_id=" + system_id);
  CHECK_THAT(log.text(), Catch::Contains("(a token rotation): trying again at once"));
  CHECK(log.text().find(rotated) == std::string::npos);
  check_no_token(run, log);
}

// The refused token is still the one in config.toml: the runner was removed, one DELETE.
TEST_CASE_METHOD(unregistration_fixture,
                 "gitlab: a 403 for the token config.toml still holds means removed",
                 "[unregister][integration][token_rotation]") {
  captured_log log;
  serve(scenario(json::object()));
  read_token_with([](const gitlab_token_source&) {
    return token_reading{token_reading_kind::found, secret_text{"glrt-IntegrationSecretOld"}, {}};
  });
  auto runner = gitlab("glrt-IntegrationSecretOld");
  runner.token_source = gitlab_token_source{"config.toml", {}};
  const auto run = unregister({runner});
  REQUIRE(run.finished);
  CHECK(run.finished->runners.at(0).how == unregister_how::already_gone);
  CHECK(of_route(api().requests(100, 300ms), "gitlab_delete").size() == 1);
  CHECK_THAT(log.text(), Catch::Contains("still holds: the runner was removed from GitLab"));
  check_no_token(run, log);
}

// config.toml cannot be read: a 403 proves nothing, so it is retried and reported.
TEST_CASE_METHOD(unregistration_fixture,
                 "gitlab: a 403 with config.toml unreadable is retried as an error",
                 "[unregister][integration][token_rotation]") {
  captured_log log;
  serve(scenario(json::object()));
  read_token_with([](const gitlab_token_source&) {
    return token_reading{token_reading_kind::unreadable, {}, "config.toml: cannot be opened"};
  });
  auto runner = gitlab("glrt-IntegrationSecretOld");
  runner.token_source = gitlab_token_source{"config.toml", {}};
  const auto run = unregister({runner}, 1s);
  CHECK_FALSE(run.finished);
  REQUIRE_FALSE(run.statuses.empty());
  CHECK(run.statuses.back().state == unregister_state::retrying);
  CHECK_THAT(run.statuses.back().detail, Catch::Contains("could not be read again"));
  CHECK(of_route(api().requests(100, 300ms), "gitlab_delete").size() >= 2);
  check_no_token(run, log);
}
