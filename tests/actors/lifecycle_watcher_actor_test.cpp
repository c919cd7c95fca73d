// The lifecycle watcher in virtual time, with a scripted metadata service behind a fake
// HTTP port: the script holds the lifecycle state, the spot notice and the tokens it has
// handed out, enforces them like IMDSv2 (401 for a missing, unknown or expired token), and
// writes down every request with its virtual time. The tests move time and the script and
// check what reaches the listener and when: one trigger per latch within one poll interval,
// tokens reused until 80% of their TTL, a new token after a 401, retries one backoff apart,
// the spot deadline, and nothing at all from bad answers.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <memory>

#include "actors/aws_watcher/aws_watcher_actor.hpp"
#include "src/util/rfc3339_time.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

struct recorded_request {
  caf::timespan at;
  std::string method;
  std::string path;
};

struct imds_script {
  caf::actor_clock::time_point start;
  std::optional<std::string> lifecycle_state;   // nullopt: 404
  std::optional<std::string> spot_action;       // nullopt: 404
  std::map<std::string, caf::timespan> tokens;  // token -> expiry, in virtual time
  std::deque<int> token_failures;               // statuses for the next token PUTs
  std::uint64_t tokens_issued = 0;
  std::vector<recorded_request> requests;
};

std::optional<std::string> header(const http_request& request, const std::string& name) {
  for (const auto& [key, value] : request.headers)
    if (key == name) return value;
  return std::nullopt;
}

http_response answer(imds_script& script, const http_request& request, caf::timespan now) {
  const auto path = request.url.substr(std::string{"http://imds.test"}.size());
  if (request.method == "PUT" && path == "/latest/api/token") {
    if (!script.token_failures.empty()) {
      const int status = script.token_failures.front();
      script.token_failures.pop_front();
      return {request.id, status, {}, "<html>oops</html>", {}};
    }
    const auto ttl = std::stoi(*header(request, "X-aws-ec2-metadata-token-ttl-seconds"));
    const auto token = "token-" + std::to_string(++script.tokens_issued);
    script.tokens[token] = now + std::chrono::seconds{ttl};
    return {request.id,
            200,
            {},
            token,
            {{"x-aws-ec2-metadata-token-ttl-seconds", std::to_string(ttl)}}};
  }
  const auto token = header(request, "X-aws-ec2-metadata-token");
  const auto known = token ? script.tokens.find(*token) : script.tokens.end();
  if (known == script.tokens.end() || known->second <= now) return {request.id, 401};
  std::optional<std::string> body;
  if (path == "/latest/meta-data/autoscaling/target-lifecycle-state")
    body = script.lifecycle_state;
  else if (path == "/latest/meta-data/spot/instance-action")
    body = script.spot_action;
  else if (path == "/latest/dynamic/instance-identity/document")
    body = R"({"instanceId": "i-1", "region": "us-east-1", "accountId": "111122223333"})";
  if (!body) return {request.id, 404, {}, "<html>404 - Not Found</html>", {}};
  return {request.id, 200, {}, *body, {}};
}

http_port_actor::behavior_type scripted_imds_port(http_port_actor::pointer self,
                                                  std::shared_ptr<imds_script> script) {
  return {
      [=](const host_lookup&) {},
      [=](const http_request& request) {
        const auto now = self->clock().now() - script->start;
        script->requests.push_back(
            {now, request.method, request.url.substr(std::string{"http://imds.test"}.size())});
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                       answer(*script, request, now));
      },
  };
}

struct heard {
  std::vector<std::pair<caf::timespan, lifecycle_trigger>> triggers;
  std::vector<instance_identity> identities;
};

aws_watcher_listener_actor::behavior_type listener(aws_watcher_listener_actor::pointer self,
                                                   std::shared_ptr<heard> record,
                                                   caf::actor_clock::time_point start) {
  return {
      [=](const lifecycle_trigger& trigger) {
        record->triggers.emplace_back(self->clock().now() - start, trigger);
      },
      [=](const instance_identity& identity) { record->identities.push_back(identity); },
  };
}

class watcher_fixture : public testing::deterministic_fixture {
 public:
  watcher_fixture() {
    script->start = system().clock().now();
    script->lifecycle_state = "InService";
  }

  void start(imds_poller_config poller = config()) {
    auto port = spawn(scripted_imds_port, script);
    auto ear = spawn(listener, record, script->start);
    watcher = spawn(aws_watcher_behavior, aws_watcher_wiring{port, ear, std::move(poller), 1s});
    run();
  }

  // Moves virtual time in small steps: the watcher re-arms its tick when it handles the
  // last one, so one jump past several intervals would fire only the first.
  void pass(caf::timespan total) {
    for (caf::timespan passed{0}; passed < total; passed += step) advance(step);
  }

  static imds_poller_config config() {
    imds_poller_config made;
    made.endpoint = "http://imds.test";
    made.token_ttl = 60s;
    made.random_seed = 11;
    return made;
  }

  std::size_t count(const std::string& method, const std::string& path) const {
    std::size_t seen = 0;
    for (const auto& request : script->requests)
      seen += request.method == method && request.path == path;
    return seen;
  }

  std::shared_ptr<imds_script> script = std::make_shared<imds_script>();
  std::shared_ptr<heard> record = std::make_shared<heard>();
  aws_watcher_implementation watcher;
  static constexpr caf::timespan step = 10ms;
};

const std::string state_path = "/latest/meta-data/autoscaling/target-lifecycle-state";
const std::string token_path = "/latest/api/token";

}  // namespace

TEST_CASE_METHOD(watcher_fixture, "Terminated gives exactly one trigger within one interval",
                 "[imds][actor]") {
  start();
  CHECK(count("GET", state_path) == 1);  // the first poll runs at once
  CHECK(record->identities == std::vector<instance_identity>{{"i-1", "us-east-1", "111122223333"}});
  pass(2500ms);
  CHECK(count("GET", state_path) == 3);
  CHECK(record->triggers.empty());
  script->lifecycle_state = "Terminated";
  pass(500ms);
  REQUIRE(record->triggers.size() == 1);
  CHECK(record->triggers[0].first == 3s);
  CHECK(record->triggers[0].second.source == trigger_source::cloud_lifecycle);
  CHECK_FALSE(record->triggers[0].second.deadline);
  for (int poll = 0; poll < 10; ++poll) pass(1s);
  CHECK(count("GET", state_path) == 14);
  CHECK(record->triggers.size() == 1);
  CHECK(record->identities.size() == 1);
  CHECK(count("PUT", token_path) == 1);
}

TEST_CASE_METHOD(watcher_fixture, "the token is renewed at 80% of its TTL, not before",
                 "[imds][actor]") {
  start();
  pass(47s);
  CHECK(count("PUT", token_path) == 1);
  pass(1s);  // the poll at 48 s: 80% of 60 s
  CHECK(count("PUT", token_path) == 2);
  pass(48s);
  CHECK(count("PUT", token_path) == 3);
  CHECK(record->triggers.empty());
}

TEST_CASE_METHOD(watcher_fixture, "a revoked token is replaced after one 401, no drain",
                 "[imds][actor]") {
  start();
  pass(2s);
  script->tokens.clear();  // as if the service restarted
  pass(1s);
  CHECK(count("PUT", token_path) == 2);
  // Every page read at 3 s answered; the 401 itself reached no decision.
  const auto at_three = std::count_if(script->requests.begin(), script->requests.end(),
                                      [](const auto& request) { return request.at == 3s; });
  CHECK(at_three == 5);  // GET 401, PUT, GET state, GET spot, GET rebalance
  script->lifecycle_state = "Warmed:Terminated";
  pass(1s);
  REQUIRE(record->triggers.size() == 1);
  CHECK(record->triggers[0].first == 4s);
}

TEST_CASE_METHOD(watcher_fixture, "token failures are retried after jittered backoff",
                 "[imds][actor]") {
  script->token_failures = {500, 503};
  start();
  CHECK(count("PUT", token_path) == 1);
  CHECK(count("GET", state_path) == 0);
  pass(100ms);  // the first wait is at most retry_initial (100 ms)
  CHECK(count("PUT", token_path) == 2);
  pass(200ms);  // the second at most twice that
  CHECK(count("PUT", token_path) == 3);
  CHECK(count("GET", state_path) == 1);
  const auto second_put = script->requests[1].at;
  CHECK(second_put > 80ms);
  CHECK(second_put <= 100ms);
  CHECK(record->identities.size() == 1);
}

TEST_CASE_METHOD(watcher_fixture, "a spot notice drains once, its deadline the margin earlier",
                 "[imds][actor]") {
  auto made = config();
  made.policy.spot_safety_margin = 20s;
  start(made);
  pass(1s);
  script->spot_action = "<html><body>Internal error</body></html>";
  pass(1s);
  script->spot_action = R"({"action": "stop"})";
  pass(1s);
  CHECK(record->triggers.empty());
  script->spot_action = R"({"action": "terminate", "time": "2030-01-01T00:02:00Z"})";
  pass(1s);
  REQUIRE(record->triggers.size() == 1);
  const auto& trigger = record->triggers[0].second;
  CHECK(trigger.source == trigger_source::spot_interruption);
  CHECK(trigger.deadline == *parse_rfc3339("2030-01-01T00:01:40Z"));
  script->lifecycle_state = "Terminated";  // a second source latches on its own
  pass(3s);
  REQUIRE(record->triggers.size() == 2);
  CHECK(record->triggers[1].second.source == trigger_source::cloud_lifecycle);
}

TEST_CASE_METHOD(watcher_fixture, "unknown states and error pages never drain", "[imds][actor]") {
  start();
  for (const char* state : {"Pending:Wait", "<html>502</html>", "", "terminated"}) {
    script->lifecycle_state = state;
    pass(1s);
  }
  script->lifecycle_state = "Standby";
  pass(1s);
  CHECK(record->triggers.empty());
  CHECK(count("GET", state_path) == 6);
}
