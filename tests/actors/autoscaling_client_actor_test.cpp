// The Auto Scaling client in virtual time against a scripted HTTP port that plays the
// instance metadata service (IMDSv2 token, identity document, instance role) and the Auto
// Scaling endpoint (answers queued per test, then 200). Every request is written down with
// its virtual time. The tests check where calls go and how they are signed (the signature
// itself is checked against botocore in tests/aws), which failures are retried within the
// budget and which come back at once, and that rejected role credentials are fetched again.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "src/aws/autoscaling_requests.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr auto imds = "http://169.254.169.254";
constexpr auto identity_document =
    R"({"instanceId": "i-0123", "region": "eu-west-1", "accountId": "123456789012"})";

std::string error_body(const std::string& code, const std::string& message) {
  return "<ErrorResponse xmlns=\"http://autoscaling.amazonaws.com/doc/2011-01-01/\"><Error>"
         "<Type>Sender</Type><Code>" +
         code + "</Code><Message>" + message +
         "</Message></Error><RequestId>r-1</RequestId></ErrorResponse>";
}

struct recorded_request {
  caf::timespan at;
  http_request request;
  std::string header(const std::string& name) const {
    for (const auto& [key, value] : request.headers)
      if (key == name) return value;
    return "<absent>";
  }
};

struct world {
  caf::actor_clock::time_point start;
  std::vector<recorded_request> requests;
  std::deque<http_response> autoscaling_answers;  // consumed first; then 200
  int role_fetches = 0;
  std::vector<autoscaling_outcome> outcomes;

  std::vector<recorded_request> to(const std::string& prefix) const {
    std::vector<recorded_request> found;
    for (const auto& request : requests)
      if (request.request.url.starts_with(prefix)) found.push_back(request);
    return found;
  }
};

http_response answer(const http_request& request, world& script) {
  const auto& url = request.url;
  if (url == std::string{imds} + "/latest/api/token")
    return {.status_code = 200, .body = "token-abc"};
  if (url.ends_with("/instance-identity/document"))
    return {.status_code = 200, .body = identity_document};
  if (url.ends_with("/security-credentials/")) return {.status_code = 200, .body = "runner-role"};
  if (url.ends_with("/security-credentials/runner-role")) {
    ++script.role_fetches;
    const auto n = std::to_string(script.role_fetches);
    return {.status_code = 200,
            .body = R"({"Code": "Success", "AccessKeyId": "ASIAROLE)" + n +
                    R"(", "SecretAccessKey": "role-secret", "Token": "role-token-)" + n +
                    R"(", "Expiration": "2030-01-01T00:00:00Z"})"};
  }
  if (!script.autoscaling_answers.empty()) {
    auto next = script.autoscaling_answers.front();
    script.autoscaling_answers.pop_front();
    return next;
  }
  return {.status_code = 200, .body = "<SetDesiredCapacityResponse/>"};
}

http_port_actor::behavior_type scripted_port(http_port_actor::pointer self,
                                             std::shared_ptr<world> script) {
  return {
      [](const host_lookup&) {},
      [=](const http_request& request) {
        script->requests.push_back({self->clock().now() - script->start, request});
        auto response = answer(request, *script);
        response.id = request.id;
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), response);
      },
  };
}

caf::behavior caller(caf::event_based_actor* self, autoscaling_client_actor client,
                     autoscaling_call call, std::chrono::milliseconds budget,
                     std::shared_ptr<world> script) {
  self->request(client, caf::infinite, autoscaling_call_atom::value, std::move(call), budget)
      .then([=](const autoscaling_outcome& outcome) { script->outcomes.push_back(outcome); });
  return {[](int) {}};
}

class client_fixture : public runwarden::testing::deterministic_fixture {
 public:
  autoscaling_client_actor start(std::optional<aws_credentials> fixed,
                                 std::optional<std::string> region) {
    script_->start = system().clock().now();
    const auto port = spawn(scripted_port, script_);
    return spawn(
        autoscaling_client_behavior,
        autoscaling_client_wiring{
            .http_port = port,
            .imds_endpoint = imds,
            .fixed_credentials = std::move(fixed),
            .region = std::move(region),
            .environment = {},
            .retry_initial = 1s,
            .retry_max = 8s,
            .random_seed = 7,
            .wall_clock = [] { return std::chrono::sys_days{std::chrono::year{2026} / 11 / 25}; }});
  }

  void call(const autoscaling_client_actor& client, autoscaling_call request,
            std::chrono::milliseconds budget = 60s) {
    spawn(caller, client, std::move(request), budget, script_);
    run();
  }

  std::shared_ptr<world> script_ = std::make_shared<world>();
};

const aws_credentials fixed_keys{"AKIDFIXED", secret_text{"fixed-secret"}, std::nullopt};

}  // namespace

TEST_CASE_METHOD(client_fixture,
                 "the region comes from the identity document and names the endpoint",
                 "[autoscaling_client]") {
  const auto client = start(fixed_keys, std::nullopt);
  call(client, set_desired_capacity("runners", 3, true));
  REQUIRE(script_->outcomes.size() == 1);
  CHECK(script_->outcomes[0].succeeded);
  CHECK(script_->outcomes[0].attempts == 1);
  const auto calls = script_->to("https://autoscaling.eu-west-1.amazonaws.com");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].request.method == "POST");
  CHECK(calls[0].request.body.starts_with("Action=SetDesiredCapacity&Version=2011-01-01"));
  CHECK(calls[0]
            .header("Authorization")
            .starts_with("AWS4-HMAC-SHA256 Credential=AKIDFIXED/20261125/eu-west-1/autoscaling/"
                         "aws4_request"));
  CHECK(calls[0].header("X-Amz-Security-Token") == "<absent>");
  // The identity needed an IMDSv2 token, sent with the read.
  const auto reads = script_->to(std::string{imds} + "/latest/dynamic");
  REQUIRE(reads.size() == 1);
  CHECK(reads[0].header("X-aws-ec2-metadata-token") == "token-abc");
}

TEST_CASE_METHOD(client_fixture, "a configured region needs no metadata at all",
                 "[autoscaling_client]") {
  const auto client = start(fixed_keys, "us-east-2");
  call(client, describe_auto_scaling_groups({"runners"}));
  CHECK(script_->to(imds).empty());
  CHECK(script_->to("https://autoscaling.us-east-2.amazonaws.com").size() == 1);
}

TEST_CASE_METHOD(client_fixture,
                 "throttling and 5xx are retried with growing waits within the budget",
                 "[autoscaling_client]") {
  script_->autoscaling_answers = {
      {.status_code = 400, .body = error_body("Throttling", "Rate exceeded")},
      {.status_code = 503, .body = "<html>Service Unavailable</html>"},
      {.transport_error = "Operation timed out"}};
  const auto client = start(fixed_keys, "eu-west-1");
  call(client, set_desired_capacity("runners", 3, true));
  for (int i = 0; i < 40 && script_->outcomes.empty(); ++i) advance(1s);
  REQUIRE(script_->outcomes.size() == 1);
  CHECK(script_->outcomes[0].succeeded);
  CHECK(script_->outcomes[0].attempts == 4);
  const auto calls = script_->to("https://autoscaling");
  REQUIRE(calls.size() == 4);
  // Waits of 1 s, 2 s, 4 s, each shortened by up to half (jitter), never lengthened.
  for (std::size_t i = 1; i < calls.size(); ++i) {
    const auto wait = calls[i].at - calls[i - 1].at;
    const caf::timespan full = 1s * (1 << (i - 1));
    CHECK(wait >= full / 2);
    CHECK(wait <= full + 1s);  // the next whole second of advance() delivers it
  }
}

// A 429 from a proxy or an endpoint in front of Auto Scaling carries no AWS envelope, and an
// SDK's transient codes come with a 400: the same call later, not a refusal that would leave
// a lifecycle hook to time out.
TEST_CASE_METHOD(client_fixture, "429, 408 and the transient codes are retried like throttling",
                 "[autoscaling_client]") {
  script_->autoscaling_answers = {
      {.status_code = 429, .body = "Too Many Requests"},
      {.status_code = 408, .body = ""},
      {.status_code = 400, .body = error_body("PriorRequestNotComplete", "still working")},
      {.status_code = 400, .body = error_body("RequestTimeout", "timed out")}};
  const auto client = start(fixed_keys, "eu-west-1");
  call(client, complete_lifecycle_action_call({"drain", "runners", "i-0123", {}},
                                              lifecycle_action_result::proceed));
  for (int i = 0; i < 60 && script_->outcomes.empty(); ++i) advance(1s);
  REQUIRE(script_->outcomes.size() == 1);
  CHECK(script_->outcomes[0].succeeded);
  CHECK(script_->outcomes[0].attempts == 5);
}

TEST_CASE_METHOD(client_fixture,
                 "past the budget the last failure comes back, and no call after it",
                 "[autoscaling_client]") {
  for (int i = 0; i < 20; ++i)
    script_->autoscaling_answers.push_back(
        {.status_code = 500, .body = error_body("InternalFailure", "oops")});
  const auto client = start(fixed_keys, "eu-west-1");
  call(client, set_desired_capacity("runners", 3, true), 10s);
  for (int i = 0; i < 30 && script_->outcomes.empty(); ++i) advance(1s);
  REQUIRE(script_->outcomes.size() == 1);
  const auto& outcome = script_->outcomes[0];
  CHECK_FALSE(outcome.succeeded);
  CHECK(outcome.failure.kind == autoscaling_failure_kind::retry_with_backoff);
  CHECK(outcome.failure.code == "InternalFailure");
  const auto sent = script_->to("https://autoscaling").size();
  CHECK(sent == outcome.attempts);
  CHECK(script_->to("https://autoscaling").back().at <= caf::timespan{10s});
  advance(60s);
  CHECK(script_->to("https://autoscaling").size() == sent);
}

TEST_CASE_METHOD(client_fixture, "access denied comes back at once, naming the permission",
                 "[autoscaling_client]") {
  script_->autoscaling_answers = {
      {.status_code = 403,
       .body = error_body("AccessDenied",
                          "User: arn:aws:sts::1:assumed-role/r/i-0123 is not "
                          "authorized to perform: autoscaling:CompleteLifecycleAction")}};
  const auto client = start(fixed_keys, "eu-west-1");
  call(client, complete_lifecycle_action_call({"drain", "runners", "i-0123", std::nullopt},
                                              lifecycle_action_result::proceed));
  REQUIRE(script_->outcomes.size() == 1);
  CHECK(script_->outcomes[0].attempts == 1);
  CHECK(script_->outcomes[0].failure.kind == autoscaling_failure_kind::access_denied);
  CHECK_THAT(script_->outcomes[0].failure.description,
             Catch::Contains("autoscaling:CompleteLifecycleAction"));
}

TEST_CASE_METHOD(client_fixture, "\"no active lifecycle action\" comes back as already done",
                 "[autoscaling_client]") {
  script_->autoscaling_answers = {
      {.status_code = 400,
       .body = error_body("ValidationError",
                          "No active Lifecycle Action found with instance ID i-0123")}};
  const auto client = start(fixed_keys, "eu-west-1");
  call(client, complete_lifecycle_action_call({"drain", "runners", "i-0123", std::nullopt},
                                              lifecycle_action_result::proceed));
  REQUIRE(script_->outcomes.size() == 1);
  CHECK(script_->outcomes[0].failure.kind == autoscaling_failure_kind::already_done);
}

TEST_CASE_METHOD(client_fixture,
                 "the instance role's credentials sign, and are fetched again when rejected",
                 "[autoscaling_client]") {
  script_->autoscaling_answers = {{.status_code = 403,
                                   .body = error_body("ExpiredToken",
                                                      "The security token included in "
                                                      "the request is expired")}};
  const auto client = start(std::nullopt, "eu-west-1");
  call(client, set_desired_capacity("runners", 3, true));
  for (int i = 0; i < 10 && script_->outcomes.empty(); ++i) advance(1s);
  REQUIRE(script_->outcomes.size() == 1);
  CHECK(script_->outcomes[0].succeeded);
  CHECK(script_->role_fetches == 2);
  const auto calls = script_->to("https://autoscaling");
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].header("X-Amz-Security-Token") == "role-token-1");
  CHECK(calls[1].header("X-Amz-Security-Token") == "role-token-2");
  CHECK_THAT(calls[1].header("Authorization"), Catch::Contains("Credential=ASIAROLE2/"));
  // The next call reuses the fresh credentials and the token.
  call(client, set_desired_capacity("runners", 4, true));
  CHECK(script_->role_fetches == 2);
  CHECK(script_->to(std::string{imds} + "/latest/api/token").size() == 1);
}

TEST_CASE_METHOD(client_fixture, "calls at once share one fetch of the identity",
                 "[autoscaling_client]") {
  const auto client = start(fixed_keys, std::nullopt);
  spawn(caller, client, set_desired_capacity("runners", 3, true), 60s, script_);
  spawn(caller, client, describe_auto_scaling_groups({"runners"}), 60s, script_);
  run();
  CHECK(script_->outcomes.size() == 2);
  CHECK(script_->to(std::string{imds} + "/latest/dynamic").size() == 1);
}
