// The notifier end to end with nothing faked: the real notifier actor on the real libcurl
// port, on CAF's real scheduler, posting to a real HTTP server (Python's http.server, started
// by the test on 127.0.0.1, see webhook_receiver.py). The server writes down every request
// and checks the signature with Python's own hmac module, so the HMAC is verified by an
// implementation that is not ours. Retries use short delays to keep the test fast; the
// exact timing is the actor tests' job.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "actors/http_port/http_port_actor.hpp"
#include "actors/notifier/webhook_notifier.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "messages/child_ids.hpp"
#include "messages/warden_messages.hpp"
#include "runwarden_version.hpp"
#include "tests/common/lone_worker.hpp"
#include "tests/common/python_server.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

// The Python receiver (webhook_receiver.py), told the secret file to check signatures with.
class receiver_process : public runwarden::testing::python_server {
 public:
  explicit receiver_process(const std::string& secret_path)
      : python_server(WEBHOOK_RECEIVER_SCRIPT, {secret_path}) {}
};

struct outcome {
  notification_kind kind;
  bool delivered;
  unsigned attempts;
  friend bool operator==(const outcome&, const outcome&) = default;
};

caf::actor_system_config& production_like(caf::actor_system_config& config) {
  config.set("scheduler.policy", caf::atom("sharing"));
  config.set("scheduler.max-threads", 2);
  return config;
}

class delivery_fixture {
 public:
  delivery_fixture()
      : secret_path_(std::filesystem::temp_directory_path() /
                     ("runwarden-webhook-secret-" + std::to_string(::getpid()))),
        system_(production_like(config_)) {
    std::ofstream{secret_path_} << "integration secret\n";
    receiver_.emplace(secret_path_.string());
  }

  ~delivery_fixture() {
    if (notifier_) notifier_->stop();
    receiver_.reset();
    std::filesystem::remove(secret_path_);
  }

  webhook_settings settings_for(const std::string& url) const {
    webhook_settings settings;
    settings.url = url;
    settings.secret_file = secret_path_.string();
    settings.timeout = 5s;
    settings.retry_initial = 50ms;
    settings.retry_max = 200ms;
    settings.attempts_max = 4;
    return settings;
  }

  // The notifier as the instance's tree starts it; no warden listens.
  void start(const webhook_settings& settings) {
    auto planned = plan_notifier(settings, 7,
                                 [this](notification_kind kind, bool delivered, unsigned attempts) {
                                   const std::lock_guard lock{mutex_};
                                   outcomes_.push_back({kind, delivered, attempts});
                                 });
    REQUIRE(planned.error.empty());
    instance_plan plan;
    plan.notifier = std::move(*planned.wiring);
    notifier_.emplace(system_, plan, child_id::notifier, caf::actor{});
    REQUIRE(notifier_->supervisor());
  }

  void notify(notification_kind kind, std::vector<shutdown_callback> callbacks = {}) {
    warden_snapshot snapshot;
    snapshot.now = std::chrono::hours{1};
    snapshot.status =
        kind == notification_kind::gone ? warden_status::gone : warden_status::shutting_down;
    snapshot.phase = kind == notification_kind::gone ? drain_phase::done : drain_phase::draining;
    snapshot.trigger = trigger_source::control_api;
    snapshot.reason = "integration";
    snapshot.drain_started_at = std::chrono::minutes{59};
    if (kind == notification_kind::gone) {
      snapshot.last_exit = exit_status{.signaled = false, .value = 0};
      snapshot.exit_code = 0;
    }
    caf::anon_send(
        current_child(system_, notifier_->supervisor(), std::string{child_id::notifier}, 10s),
        notify_atom::value, kind, std::move(callbacks), snapshot);
  }

  bool flush() { return flush_notifier(system_, notifier_->supervisor(), 10s); }

  std::vector<outcome> outcomes() {
    const std::lock_guard lock{mutex_};
    return outcomes_;
  }

  receiver_process& receiver() { return *receiver_; }
  caf::actor_system& system() { return system_; }

 private:
  std::filesystem::path secret_path_;
  caf::actor_system_config config_;
  caf::actor_system system_;
  std::optional<receiver_process> receiver_;
  std::optional<testing::lone_worker> notifier_;
  std::mutex mutex_;
  std::vector<outcome> outcomes_;
};

}  // namespace

TEST_CASE_METHOD(delivery_fixture, "a signed JSON webhook reaches a real server",
                 "[webhook][integration]") {
  start(settings_for(receiver().url("127.0.0.1", "/hook?token=abc")));
  notify(notification_kind::drain_started);
  REQUIRE(flush());
  const auto seen = receiver().requests(1);
  REQUIRE(seen.size() == 1);
  const auto& request = seen[0];
  CHECK(request["method"] == "POST");
  CHECK(request["path"] == "/hook?token=abc");
  CHECK(request["headers"]["content-type"] == "application/json");
  CHECK(request["headers"]["user-agent"] == std::string{"runwarden/"} + version_text);
  CHECK(request["signature_ok"] == true);
  const auto body = json::parse(request["body"].get<std::string>());
  CHECK(body["event"] == "drain_started");
  CHECK(body["state"] == "shutting_down");
  CHECK(body["phase"] == "draining");
  CHECK(body["reason"] == "integration");
  CHECK(body["trigger"] == "control_api");
  CHECK(body["runwarden_version"] == version_text);
  CHECK(body["time"].get<std::string>().ends_with("Z"));
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::drain_started, true, 1}});
}

TEST_CASE_METHOD(delivery_fixture, "two 500s are retried, a named host goes through its pin",
                 "[webhook][integration]") {
  start(settings_for(receiver().url("localhost", "/flaky")));
  notify(notification_kind::gone);
  REQUIRE(flush());
  const auto seen = receiver().requests(3);
  REQUIRE(seen.size() == 3);
  for (const auto& request : seen) {
    CHECK(request["path"] == "/flaky");
    CHECK(request["signature_ok"] == true);
    CHECK(json::parse(request["body"].get<std::string>())["event"] == "gone");
  }
  CHECK(seen[0]["body"] == seen[2]["body"]);
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::gone, true, 3}});
}

TEST_CASE_METHOD(delivery_fixture, "a 404 is not retried", "[webhook][integration]") {
  start(settings_for(receiver().url("127.0.0.1", "/missing")));
  notify(notification_kind::drain_started);
  REQUIRE(flush());
  CHECK(receiver().requests(2, 300ms).size() == 1);
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::drain_started, false, 1}});
}

TEST_CASE_METHOD(delivery_fixture,
                 "callbacks at gone keep their method and headers, without a body, unsigned",
                 "[webhook][integration]") {
  // As gitlab-runner's wrapper sends them (helpers/runner_wrapper/api/shutdown_callback.go):
  // http.NewRequest(method, url, nil) with the caller's headers; an empty method is GET.
  auto settings = settings_for("");
  start(settings);
  notify(notification_kind::gone,
         {{receiver().url("127.0.0.1", "/callback"), "PUT", {{"X-Callback-Token", "t0k"}}}});
  REQUIRE(flush());
  const auto seen = receiver().requests(1);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["method"] == "PUT");
  CHECK(seen[0]["path"] == "/callback");
  CHECK(seen[0]["headers"]["x-callback-token"] == "t0k");
  CHECK_FALSE(seen[0]["headers"].contains("content-type"));
  CHECK(seen[0]["body"] == "");
  CHECK(seen[0]["signature_ok"].is_null());
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::gone, true, 1}});
}

TEST_CASE_METHOD(delivery_fixture, "a callback without a method is a GET without a body",
                 "[webhook][integration]") {
  start(settings_for(""));
  notify(notification_kind::gone, {{receiver().url("127.0.0.1", "/plain"), "", {}}});
  REQUIRE(flush());
  const auto seen = receiver().requests(1);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["method"] == "GET");
  CHECK(seen[0]["path"] == "/plain");
  CHECK_FALSE(seen[0]["headers"].contains("content-type"));
  CHECK_FALSE(seen[0]["headers"].contains("content-length"));
  CHECK(seen[0]["body"] == "");
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::gone, true, 1}});
}

TEST_CASE_METHOD(delivery_fixture, "link-local targets are refused without a connection attempt",
                 "[webhook][integration]") {
  const auto refused = plan_notifier(settings_for("http://169.254.169.254/latest"), 1, {});
  CHECK_FALSE(refused.wiring);
  CHECK_THAT(refused.error, Catch::Contains("link-local"));
  start(settings_for(""));
  const auto port = std::to_string(receiver().port());
  const auto started = std::chrono::steady_clock::now();
  notify(notification_kind::gone, {{"http://169.254.169.254:" + port + "/latest", "", {}},
                                   {"http://[fe80::1]:" + port + "/", "", {}},
                                   {"http://[fd00:ec2::254]:" + port + "/", "", {}}});
  REQUIRE(flush());
  // A connection attempt would have waited for the 5 s timeout; a refusal takes no time.
  CHECK(std::chrono::steady_clock::now() - started < 2s);
  CHECK(outcomes() == std::vector<outcome>(3, {notification_kind::gone, false, 0}));
  CHECK(receiver().requests(1, 300ms).empty());
}

TEST_CASE("plan_notifier names bad settings", "[webhook][integration]") {
  webhook_settings settings;
  settings.url = "ftp://example.com/";
  CHECK_THAT(plan_notifier(settings, 1, {}).error, Catch::Contains("scheme \"ftp\""));
  settings.url = "https://example.com/";
  settings.secret_file = "/nonexistent/secret";
  CHECK_THAT(plan_notifier(settings, 1, {}).error, Catch::Contains("/nonexistent/secret"));
  settings.secret_file.clear();
  settings.timeout = 0ms;
  CHECK_THAT(plan_notifier(settings, 1, {}).error, Catch::Contains("timeout"));
}

TEST_CASE_METHOD(delivery_fixture, "the HTTP port resolves, pins and times out for real",
                 "[webhook][integration]") {
  auto worker = std::make_shared<http_worker>();
  auto port = system().spawn(http_port, worker, nullptr);
  caf::scoped_actor asker{system()};
  asker->send(port, host_lookup{1, "localhost", 2s});
  asker->receive([](const host_lookup_result& result) {
    CHECK(result.id == 1);
    CHECK(std::find(result.addresses.begin(), result.addresses.end(), "127.0.0.1") !=
          result.addresses.end());
  });
  // A name no DNS knows reaches the server only through its pin (IPv6 first, refused).
  const auto pinned = receiver().url("pinned.invalid", "/pinned");
  asker->send(port, http_request{2,
                                 "POST",
                                 pinned,
                                 {},
                                 "{}",
                                 2s,
                                 {{"pinned.invalid",
                                   static_cast<std::uint16_t>(receiver().port()),
                                   {"::1", "127.0.0.1"}}}});
  asker->receive([](const http_response& response) {
    CHECK(response.id == 2);
    CHECK(response.status_code == 200);
  });
  CHECK(receiver().requests(1).at(0)["headers"]["host"].get<std::string>().starts_with(
      "pinned.invalid"));
  const auto started = std::chrono::steady_clock::now();
  asker->send(port,
              http_request{3, "POST", receiver().url("127.0.0.1", "/slow"), {}, "{}", 300ms, {}});
  asker->receive([](const http_response& response) {
    CHECK_FALSE(response.status_code);
    CHECK_THAT(response.transport_error, Catch::Contains("timed out"));
  });
  // The "timed out" answer shows the timeout applied; the bound shows it did not wait for
  // the slow server. No lower bound: curl's clock and ours may differ by a tick.
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(took < 2s);
  worker->stop();
  asker->send(port, http_request{4, "POST", pinned, {}, "{}", 2s, {}});
  asker->receive([](const http_response& response) {
    CHECK_THAT(response.transport_error, Catch::Contains("stopped"));
  });
  caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
}

namespace {

// Sets one environment variable for a test's span, as a user's shell would before starting
// runwarden; restored after. Set only while no transfer runs (before the notifier starts).
class environment_variable {
 public:
  environment_variable(const char* name, const std::string& value) : name_(name) {
    if (const char* before = std::getenv(name)) before_ = before;
    ::setenv(name, value.c_str(), 1);
  }
  ~environment_variable() {
    if (before_) {
      ::setenv(name_, before_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  environment_variable(const environment_variable&) = delete;
  environment_variable& operator=(const environment_variable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> before_;
};

}  // namespace

TEST_CASE_METHOD(delivery_fixture,
                 "a template body goes out as rendered, signed, with the operator's headers",
                 "[webhook][integration]") {
  auto settings = settings_for(receiver().url("127.0.0.1", "/chat"));
  settings.templates[notification_kind::drain_started] =
      R"({"text": "{{headline}}", "reason": "{{reason}}", "event": "{{event}}"})";
  settings.headers = {{"X-Team", "ci"}, {"Authorization", "Bearer s3cret"}};
  start(settings);
  notify(notification_kind::drain_started);
  notify(notification_kind::gone);  // no template for gone: the default body
  REQUIRE(flush());
  const auto seen = receiver().requests(2);
  REQUIRE(seen.size() == 2);
  const auto& started =
      seen[0]["body"].get<std::string>().find("\"text\"") != std::string::npos ? seen[0] : seen[1];
  const auto& gone = &started == &seen[0] ? seen[1] : seen[0];
  const auto body = json::parse(started["body"].get<std::string>());
  CHECK(body == json{{"text", "runner: drain started (control_api)"},
                     {"reason", "integration"},
                     {"event", "drain_started"}});
  CHECK(started["headers"]["x-team"] == "ci");
  CHECK(started["headers"]["authorization"] == "Bearer s3cret");
  CHECK(started["headers"]["content-type"] == "application/json");
  CHECK(started["signature_ok"] == true);  // over the rendered bytes
  CHECK(json::parse(gone["body"].get<std::string>())["event"] == "gone");
  CHECK(gone["headers"]["x-team"] == "ci");
}

TEST_CASE_METHOD(delivery_fixture, "the webhook goes through the environment's proxy",
                 "[webhook][integration]") {
  // The receiver answers absolute-form requests itself, as a forward proxy would after
  // passing them on; port 1 on loopback has no server, so only the proxy can answer.
  const environment_variable proxy{"http_proxy", receiver().url("127.0.0.1", "")};
  auto settings = settings_for("http://127.0.0.1:1/behind-proxy");
  settings.attempts_max = 1;
  start(settings);
  notify(notification_kind::drain_started);
  REQUIRE(flush());
  const auto seen = receiver().requests(1);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["path"] == "http://127.0.0.1:1/behind-proxy");
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::drain_started, true, 1}});
}

TEST_CASE_METHOD(delivery_fixture, "without proxy_from_environment no proxy is used",
                 "[webhook][integration]") {
  const environment_variable proxy{"http_proxy", receiver().url("127.0.0.1", "")};
  auto settings = settings_for("http://127.0.0.1:1/direct");
  settings.attempts_max = 1;
  settings.proxy_from_environment = false;
  start(settings);
  notify(notification_kind::drain_started);
  REQUIRE(flush());
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::drain_started, false, 1}});
  CHECK(receiver().requests(1, 300ms).empty());
}

TEST_CASE_METHOD(delivery_fixture, "the metadata guard holds for targets behind a proxy",
                 "[webhook][integration]") {
  const environment_variable proxy{"http_proxy", receiver().url("127.0.0.1", "")};
  start(settings_for(""));
  notify(notification_kind::gone, {{"http://169.254.169.254/latest/meta-data/", "", {}}});
  REQUIRE(flush());
  CHECK(outcomes() == std::vector<outcome>{{notification_kind::gone, false, 0}});
  CHECK(receiver().requests(1, 300ms).empty());
}
