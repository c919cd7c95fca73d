// The notifier in virtual time, with a scripted HTTP port in place of libcurl: the script
// says what each host resolves to and what status each URL answers, in order, and the port
// writes down every lookup and request with its virtual time. The tests check what is sent
// (method, headers, signature, pins, body), when (retries exactly one backoff apart, the
// delays being the policy's own for the notifier's seed), when it stops (2xx, a final 4xx,
// the budget, a refused address), and that flush answers only once nothing is pending.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "actors/notifier/notifier_actor.hpp"
#include "src/util/seeded_random.hpp"
#include "src/webhook/body_signature.hpp"
#include "tests/actors/deterministic_fixture.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr std::uint64_t seed = 20240501;
constexpr delivery_limits limits{.retry_initial = 1s, .retry_max = 30s, .attempts_max = 4};

struct recorded_request {
  caf::timespan at;
  http_request request;
};

// What the scripted port answers, and what it saw. Unscripted URLs answer 200; an empty
// optional in a URL's script is a transport failure.
struct port_script {
  caf::actor_clock::time_point start;
  std::map<std::string, std::vector<std::string>> addresses;  // unscripted hosts fail
  std::map<std::string, std::deque<std::optional<int>>> statuses;
  std::vector<std::string> lookups;
  std::vector<recorded_request> requests;
};

http_port_actor::behavior_type scripted_http_port(http_port_actor::pointer self,
                                                  std::shared_ptr<port_script> script) {
  return {
      [=](const host_lookup& lookup) {
        script->lookups.push_back(lookup.host);
        const auto found = script->addresses.find(lookup.host);
        host_lookup_result result{lookup.id, {}, "Name or service not known"};
        if (found != script->addresses.end()) result = {lookup.id, found->second, {}};
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), result);
      },
      [=](const http_request& request) {
        script->requests.push_back({self->clock().now() - script->start, request});
        http_response response{request.id, 200, {}};
        auto& queued = script->statuses[request.url];
        if (!queued.empty()) {
          response.status_code = queued.front();
          if (!response.status_code) response.transport_error = "Connection refused";
          queued.pop_front();
        }
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), response);
      },
  };
}

struct outcome {
  notification_kind kind;
  bool delivered;
  unsigned attempts;
  friend bool operator==(const outcome&, const outcome&) = default;
};

struct flush_record {
  std::optional<caf::timespan> answered_at;
};

caf::behavior flush_probe(caf::event_based_actor* self, notifier_actor notifier,
                          std::shared_ptr<flush_record> record,
                          caf::actor_clock::time_point start) {
  self->request(notifier, caf::infinite, flush_atom::value).then([=](caf::ok_atom) {
    record->answered_at = self->clock().now() - start;
  });
  return {[](caf::get_atom) {}};
}

std::optional<std::string> header(const http_request& request, const std::string& name) {
  for (const auto& [key, value] : request.headers)
    if (key == name) return value;
  return std::nullopt;
}

warden_snapshot snapshot_in(warden_status status, drain_phase phase) {
  warden_snapshot snapshot;
  snapshot.status = status;
  snapshot.phase = phase;
  snapshot.trigger = trigger_source::signal_terminate;
  snapshot.reason = "test";
  return snapshot;
}

class notifier_fixture : public testing::deterministic_fixture {
 public:
  notifier_fixture() {
    script_->start = system().clock().now();
    script_->addresses["hooks.example.com"] = {"203.0.113.5"};
    port_ = spawn(scripted_http_port, script_);
  }

  void start(const std::string& url, std::uint32_t attempts_max = limits.attempts_max) {
    auto target = url.empty() ? std::nullopt : parse_webhook_target(url).target;
    auto bounded = limits;
    bounded.attempts_max = attempts_max;
    notifier_ = spawn(
        notifier_behavior,
        notifier_wiring{
            .http_port = port_,
            .webhook = std::move(target),
            .secret = "Jefe",
            .allow_link_local = false,
            .timeout = 5s,
            .limits = bounded,
            .random_seed = seed,
            .observer =
                [outcomes = outcomes_](notification_kind kind, bool delivered, unsigned attempts) {
                  outcomes->push_back({kind, delivered, attempts});
                },
            .clock = [] { return std::chrono::system_clock::now(); },
            .version = "9.9.9"});
    run();
  }

  void notify(notification_kind kind, std::vector<shutdown_callback> callbacks = {}) {
    const auto snapshot = kind == notification_kind::gone
                              ? snapshot_in(warden_status::gone, drain_phase::done)
                              : snapshot_in(warden_status::shutting_down, drain_phase::draining);
    caf::anon_send(notifier_, notify_atom::value, kind, std::move(callbacks), snapshot);
    run();
  }

  std::shared_ptr<flush_record> flush() {
    auto record = std::make_shared<flush_record>();
    spawn(flush_probe, notifier_, record, script_->start);
    run();
    return record;
  }

  // The `skip`-th request sent to `url`.
  http_request sent_to(const std::string& url, std::size_t skip = 0) const {
    std::vector<http_request> matching;
    for (const auto& recorded : script_->requests)
      if (recorded.request.url == url) matching.push_back(recorded.request);
    REQUIRE(matching.size() > skip);
    return matching[skip];
  }

  std::shared_ptr<port_script> script_ = std::make_shared<port_script>();
  std::shared_ptr<std::vector<outcome>> outcomes_ = std::make_shared<std::vector<outcome>>();
  http_port_actor port_;
  notifier_implementation notifier_;
};

// The delays the notifier must use: the policy's, drawn from the same seed in the same order.
std::vector<caf::timespan> expected_delays(std::size_t count) {
  std::uint64_t random_state = seed;
  std::vector<caf::timespan> delays;
  for (std::uint32_t attempt = 1; attempt <= count; ++attempt)
    delays.push_back(retry_delay(limits, attempt, next_unit_random(random_state)));
  return delays;
}

constexpr const char* hook = "https://hooks.example.com/runwarden?token=t";

}  // namespace

TEST_CASE_METHOD(notifier_fixture, "a webhook delivered on the first try", "[notifier]") {
  start(hook);
  notify(notification_kind::drain_started);
  CHECK(script_->lookups == std::vector<std::string>{"hooks.example.com"});
  REQUIRE(script_->requests.size() == 1);
  const auto& request = script_->requests[0].request;
  CHECK(script_->requests[0].at == 0s);
  CHECK(request.method == "POST");
  CHECK(request.url == hook);
  CHECK(request.timeout == 5s);
  CHECK(header(request, "Content-Type") == "application/json");
  CHECK(header(request, "User-Agent") == "runwarden/9.9.9");
  CHECK(header(request, "X-Runwarden-Signature") == signature_header_value("Jefe", request.body));
  REQUIRE(request.pins.size() == 1);
  CHECK(request.pins[0].host == "hooks.example.com");
  CHECK(request.pins[0].port == 443);
  CHECK(request.pins[0].addresses == std::vector<std::string>{"203.0.113.5"});
  const auto body = nlohmann::json::parse(request.body);
  CHECK(body["event"] == "drain_started");
  CHECK(body["state"] == "shutting_down");
  CHECK(body["trigger"] == "sigterm");
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::drain_started, true, 1}});
  CHECK(state_of<notifier_state>(notifier_).deliveries.empty());
}

TEST_CASE_METHOD(notifier_fixture, "500, 500, 200: retried exactly one backoff apart",
                 "[notifier]") {
  script_->statuses[hook] = {500, 500, 200};
  start(hook);
  notify(notification_kind::drain_started);
  const auto delays = expected_delays(2);
  CHECK(delays[0] > 800ms);
  CHECK(delays[0] <= 1s);
  CHECK(delays[1] > 1600ms);
  CHECK(delays[1] <= 2s);
  REQUIRE(script_->requests.size() == 1);
  advance(delays[0] - 1ns);
  CHECK(script_->requests.size() == 1);
  advance(1ns);
  REQUIRE(script_->requests.size() == 2);
  CHECK(script_->requests[1].at == delays[0]);
  advance(delays[1] - 1ns);
  CHECK(script_->requests.size() == 2);
  advance(1ns);
  REQUIRE(script_->requests.size() == 3);
  CHECK(script_->requests[2].at == delays[0] + delays[1]);
  CHECK(script_->lookups.size() == 3);  // every attempt checks the name again
  CHECK(script_->requests[0].request.body == script_->requests[2].request.body);
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::drain_started, true, 3}});
  advance(1h);
  CHECK(script_->requests.size() == 3);
}

TEST_CASE_METHOD(notifier_fixture, "the budget is spent after attempts_max tries", "[notifier]") {
  script_->statuses[hook] = {503, std::nullopt, 502, 500, 200};
  start(hook, 4);
  notify(notification_kind::gone);
  // Each advance fires one retry; its successor is armed only when it runs.
  for (const auto delay : expected_delays(3)) advance(delay);
  REQUIRE(script_->requests.size() == 4);
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::gone, false, 4}});
  advance(1h);
  CHECK(script_->requests.size() == 4);
}

TEST_CASE_METHOD(notifier_fixture, "a 404 is final: no retry", "[notifier]") {
  script_->statuses[hook] = {404, 200};
  start(hook);
  notify(notification_kind::drain_started);
  advance(1h);
  CHECK(script_->requests.size() == 1);
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::drain_started, false, 1}});
}

TEST_CASE_METHOD(notifier_fixture,
                 "callbacks go out at gone only, with method and headers and no body",
                 "[notifier]") {
  start(hook);
  const std::vector<shutdown_callback> callbacks{
      {"http://127.0.0.1:8080/callback", "PUT", {{"Authorization", "Bearer abc"}}},
      {"http://hooks.example.com/second", "", {}},
  };
  notify(notification_kind::drain_started, callbacks);
  CHECK(script_->requests.size() == 1);
  notify(notification_kind::gone, callbacks);
  REQUIRE(script_->requests.size() == 4);
  const auto webhook = sent_to(hook, 1);
  CHECK(nlohmann::json::parse(webhook.body)["event"] == "gone");
  const auto put = sent_to("http://127.0.0.1:8080/callback");
  CHECK(put.method == "PUT");
  CHECK(put.pins.empty());  // a numeric host needs neither lookup nor pin
  CHECK(header(put, "Authorization") == "Bearer abc");
  CHECK_FALSE(header(put, "Content-Type"));  // gitlab-runner's callback has no body
  CHECK_FALSE(header(put, "X-Runwarden-Signature"));
  CHECK(put.body.empty());
  const auto second = sent_to("http://hooks.example.com/second");
  CHECK(second.method == "GET");
  CHECK(second.pins.at(0).port == 80);
  CHECK(outcomes_->size() == 4);
  CHECK(std::all_of(outcomes_->begin(), outcomes_->end(),
                    [](const outcome& o) { return o.delivered && o.attempts == 1; }));
}

TEST_CASE_METHOD(notifier_fixture, "callbacks without a configured webhook", "[notifier]") {
  start("");
  notify(notification_kind::drain_started);
  CHECK(script_->requests.empty());
  notify(notification_kind::gone, {{"http://127.0.0.1:8080/callback", "", {}}});
  REQUIRE(script_->requests.size() == 1);
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::gone, true, 1}});
}

TEST_CASE_METHOD(notifier_fixture, "a name resolving to a link-local address is never requested",
                 "[notifier]") {
  script_->addresses["metadata.example.com"] = {"203.0.113.9", "169.254.169.254"};
  start("");
  notify(notification_kind::gone, {{"http://metadata.example.com/latest", "", {}},
                                   {"http://[fe80::1]/", "", {}},
                                   {"ftp://ci.example.com/", "", {}}});
  CHECK(script_->lookups == std::vector<std::string>{"metadata.example.com"});
  CHECK(script_->requests.empty());
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::gone, false, 0},
                                           {notification_kind::gone, false, 0},
                                           {notification_kind::gone, false, 0}});
}

TEST_CASE_METHOD(notifier_fixture,
                 "metadata addresses in IPv6 spellings and other clouds' are never requested",
                 "[notifier][metadata]") {
  // The HTTP port fake records every request: none may reach it, numeric or looked up.
  script_->addresses["nat64.example.com"] = {"64:ff9b::a9fe:a9fe"};
  script_->addresses["alibaba.example.com"] = {"100.100.100.200"};
  start("");
  notify(notification_kind::gone, {{"http://[::a9fe:a9fe]/latest/meta-data/", "", {}},
                                   {"http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "", {}},
                                   {"http://100.100.100.200/latest/meta-data/", "", {}},
                                   {"http://[2002:a9fe:a9fe::1]/", "", {}},
                                   {"http://nat64.example.com/", "", {}},
                                   {"http://alibaba.example.com/", "", {}}});
  CHECK(script_->requests.empty());
  CHECK(outcomes_->size() == 6);
  for (const auto& result : *outcomes_) CHECK_FALSE(result.delivered);
}

TEST_CASE_METHOD(notifier_fixture, "a failed lookup spends an attempt and is retried",
                 "[notifier]") {
  start("https://unknown.example.com/", 2);
  notify(notification_kind::drain_started);
  CHECK(script_->lookups.size() == 1);
  advance(expected_delays(1)[0]);
  CHECK(script_->lookups.size() == 2);
  CHECK(script_->requests.empty());
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::drain_started, false, 2}});
}

TEST_CASE_METHOD(notifier_fixture, "flush answers once nothing is pending", "[notifier]") {
  start(hook);
  CHECK(flush()->answered_at == 0s);
  script_->statuses[hook] = {500, 200};
  notify(notification_kind::gone);
  const auto waiting = flush();
  CHECK_FALSE(waiting->answered_at);
  const auto delay = expected_delays(1)[0];
  advance(delay - 1ns);
  CHECK_FALSE(waiting->answered_at);
  advance(1ns);
  CHECK(waiting->answered_at == delay);
}

TEST_CASE_METHOD(notifier_fixture, "flush answers when the budget is spent", "[notifier]") {
  script_->statuses[hook] = {500, 500};
  start(hook, 2);
  notify(notification_kind::gone);
  const auto waiting = flush();
  advance(expected_delays(1)[0]);
  CHECK(waiting->answered_at == expected_delays(1)[0]);
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::gone, false, 2}});
}

TEST_CASE_METHOD(notifier_fixture, "when the HTTP port dies, pending deliveries are given up",
                 "[notifier]") {
  script_->statuses[hook] = {500};
  start(hook);
  notify(notification_kind::gone);
  const auto waiting = flush();
  caf::anon_send_exit(port_, caf::exit_reason::kill);
  run();
  CHECK(waiting->answered_at == 0s);
  CHECK(*outcomes_ == std::vector<outcome>{{notification_kind::gone, false, 1}});
}

namespace {

struct requester_state {
  std::vector<std::pair<caf::timespan, notification_settled>> settled;
};

// Sends one gone notify (snapshot version 42), as the warden would, and records the answer.
caf::behavior notify_requester(caf::stateful_actor<requester_state>* self, notifier_actor notifier,
                               std::vector<shutdown_callback> callbacks,
                               caf::actor_clock::time_point start) {
  auto snapshot = snapshot_in(warden_status::gone, drain_phase::done);
  snapshot.version = 42;
  self->send(notifier, notify_atom::value, notification_kind::gone, std::move(callbacks), snapshot);
  return {[=](const notification_settled& settled) {
    self->state.settled.emplace_back(self->clock().now() - start, settled);
  }};
}

}  // namespace

TEST_CASE_METHOD(notifier_fixture, "the sender hears once every delivery of a notify settled",
                 "[notifier]") {
  script_->statuses[hook] = {500, 200};
  start(hook);
  const auto requester = spawn(
      notify_requester, notifier_,
      std::vector<shutdown_callback>{{"http://127.0.0.1:8080/callback", "", {}}}, script_->start);
  run();
  const auto& settled = state_of<requester_state>(requester).settled;
  CHECK(settled.empty());  // the callback is delivered, the webhook waits for its retry
  advance(limits.retry_max);
  REQUIRE(settled.size() == 1);
  CHECK(settled[0].first > 0s);
  CHECK(settled[0].first == script_->requests.back().at);
  CHECK(settled[0].second.kind == notification_kind::gone);
  CHECK(settled[0].second.version == 42);
  CHECK(state_of<notifier_state>(notifier_).notifications.empty());
}

TEST_CASE_METHOD(notifier_fixture, "a notify with nothing to deliver settles at once",
                 "[notifier]") {
  start("");
  const auto requester =
      spawn(notify_requester, notifier_, std::vector<shutdown_callback>{}, script_->start);
  run();
  REQUIRE(state_of<requester_state>(requester).settled.size() == 1);
  CHECK(state_of<notifier_state>(notifier_).notifications.empty());
}

// A notifier is told of each drain event once and of at most shutdown_callbacks_max
// callbacks, but it bounds what it holds by itself too: past pending_deliveries_max open
// deliveries (here all waiting to retry a 503) a new one is dropped at once, said in the log
// and reported to the observer as not delivered after no attempt, and the ones held go on.
TEST_CASE_METHOD(notifier_fixture, "past pending_deliveries_max a delivery is dropped",
                 "[notifier][bounds]") {
  start("");
  // One batch more than the notifier holds.
  constexpr std::size_t batches = pending_deliveries_max / shutdown_callbacks_max + 1;
  static_assert(pending_deliveries_max % shutdown_callbacks_max == 0);
  for (std::size_t batch = 0; batch < batches; ++batch) {
    std::vector<shutdown_callback> callbacks;
    for (std::size_t i = 0; i < shutdown_callbacks_max; ++i) {
      const auto url = "http://203.0.113.5/b" + std::to_string(batch) + "/" + std::to_string(i);
      script_->statuses[url] = {503, 503, 503, 503};
      callbacks.push_back({url, "POST", {}});
    }
    notify(notification_kind::gone, std::move(callbacks));
  }
  CHECK(state_of<notifier_state>(notifier_).deliveries.size() == pending_deliveries_max);
  const std::size_t offered = batches * shutdown_callbacks_max;
  CHECK(script_->requests.size() == pending_deliveries_max);
  CHECK(static_cast<std::size_t>(std::count(outcomes_->begin(), outcomes_->end(),
                                            outcome{notification_kind::gone, false, 0})) ==
        offered - pending_deliveries_max);
  for (std::size_t i = 0; i < shutdown_callbacks_max; ++i)
    CHECK(script_
              ->statuses["http://203.0.113.5/b" + std::to_string(batches - 1) + "/" +
                         std::to_string(i)]
              .size() == 4);

  // The ones held keep their retries; the budget (attempts_max) still ends every one.
  for (int step = 0; step < 100 && !state_of<notifier_state>(notifier_).deliveries.empty(); ++step)
    advance(30s);
  CHECK(state_of<notifier_state>(notifier_).deliveries.empty());
  CHECK(script_->requests.size() == pending_deliveries_max * limits.attempts_max);
}
