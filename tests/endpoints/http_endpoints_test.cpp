// The HTTP endpoints served for real on 127.0.0.1 with an ephemeral port, fetched with
// libcurl and raw sockets. The registry behind them is fed synthetic effects and snapshots,
// as the warden's observer would feed it; the /metrics body must pass `promtool check
// metrics` with no output at all, lint warnings included. Limits are shrunk where a case
// checks them, so that timeouts take a fraction of a second.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include "src/control/http_endpoints.hpp"
#include "src/telemetry/exposition_writer.hpp"
#include "tests/endpoints/http_client.hpp"

namespace {

using namespace runwarden;
using namespace runwarden::testing;
using namespace std::chrono_literals;

const auto started_at = std::chrono::system_clock::time_point{1700000000s};

control_settings on_loopback(std::string listen = "127.0.0.1:0") {
  control_settings settings;
  settings.http_listen = std::move(listen);
  return settings;
}

// Feeds the registry a whole drain: running, SIGTERM, graceful signal, exit after 90 s.
class synthetic_warden {
 public:
  explicit synthetic_warden(metrics_registry& registry) : registry_(registry) {}

  void run() {
    snapshot_.runner_pid = 100;
    step({change_status{warden_status::starting, warden_status::running}}, warden_status::running,
         drain_phase::none);
  }

  void begin_drain() {
    snapshot_.trigger = trigger_source::signal_terminate;
    snapshot_.drain_started_at = 10s;
    step({change_status{warden_status::running, warden_status::shutting_down},
          signal_runner{100, 3, signal_purpose::graceful}},
         warden_status::shutting_down, drain_phase::draining);
  }

  void end_drain() {
    snapshot_.runner_pid.reset();
    snapshot_.last_exit = exit_status{false, 0};
    snapshot_.status_since = 100s;
    step({change_status{warden_status::shutting_down, warden_status::gone}}, warden_status::gone,
         drain_phase::done);
  }

 private:
  void step(const std::vector<drain_effect>& effects, warden_status status, drain_phase phase) {
    ++snapshot_.version;
    snapshot_.status = status;
    snapshot_.phase = phase;
    for (const auto& effect : effects) registry_.observe(effect, snapshot_);
  }

  metrics_registry& registry_;
  warden_snapshot snapshot_;
};

std::unique_ptr<http_endpoints> start_or_fail(metrics_registry& registry,
                                              const http_limits& limits = {}) {
  auto started = http_endpoints::start(on_loopback(), registry, limits);
  INFO(started.error);
  REQUIRE(started.error.empty());
  REQUIRE(started.endpoints != nullptr);
  REQUIRE(started.endpoints->port() != 0);
  return std::move(started.endpoints);
}

std::string url(const http_endpoints& endpoints, const std::string& path) {
  return "http://" + endpoints.address() + path;
}

}  // namespace

TEST_CASE("/metrics serves the registry in a form promtool accepts without a word") {
  metrics_registry registry{"0.1.0", started_at};
  synthetic_warden warden{registry};
  warden.run();
  warden.begin_drain();
  warden.end_drain();
  registry.count_webhook_delivery(notification_kind::gone, true);
  registry.count_scaling_decision(scaling_decision_kind::scale_in_self, started_at + 120s);
  registry.count_scaling_call_failure(autoscaling_failure_kind::retry_later);
  registry.count_lifecycle_heartbeat(heartbeat_outcome::recorded);
  registry.count_lifecycle_completion(completion_result::already_done);
  registry.count_unregistration_attempt(outcome_kind::rate_limited);
  registry.mark_metadata_answered(started_at + 30s);
  auto endpoints = start_or_fail(registry);
  http_client client;
  const auto reply = client.fetch(url(*endpoints, "/metrics"));
  INFO(reply.error);
  REQUIRE(reply.status == 200);
  CHECK(reply.content_type == "text/plain; version=0.0.4; charset=utf-8");
  const auto families = registry.collect();
  CHECK(reply.body == write_exposition(families));
  CHECK_THAT(reply.body, Catch::Contains("runwarden_drains_total{trigger=\"sigterm\"} 1\n"));
  CHECK_THAT(reply.body, Catch::Contains("runwarden_drain_duration_seconds_sum 90\n"));
  CHECK_THAT(reply.body,
             Catch::Contains("runwarden_scaling_decisions_total{kind=\"scale_in_self\"} 1\n"));
  CHECK_THAT(reply.body, Catch::Contains("runwarden_runner_exits_total{kind=\"code\","
                                         "value=\"0\"} 1\n"));
  CHECK_THAT(
      reply.body,
      Catch::Contains("runwarden_unregistration_attempts_total{outcome=\"rate_limited\"} 1\n"));
  CHECK_THAT(reply.body,
             Catch::Contains("runwarden_lifecycle_completions_total{result=\"already_done\"} 1\n"));
  const auto verdict = check_with_promtool(reply.body);
  INFO(verdict.output);
  CHECK(verdict.exit_code == 0);
  CHECK(verdict.output.empty());
}

TEST_CASE("/healthz is always ok, /readyz is 200 only while running") {
  metrics_registry registry{"0.1.0", started_at};
  synthetic_warden warden{registry};
  auto endpoints = start_or_fail(registry);
  http_client client;
  CHECK(client.fetch(url(*endpoints, "/healthz")).body == "ok\n");
  auto ready = client.fetch(url(*endpoints, "/readyz"));
  CHECK(ready.status == 503);
  CHECK(ready.body == "not ready: starting\n");
  warden.run();
  ready = client.fetch(url(*endpoints, "/readyz"));
  CHECK(ready.status == 200);
  CHECK(ready.content_type == "text/plain; charset=utf-8");
  warden.begin_drain();
  ready = client.fetch(url(*endpoints, "/readyz"));
  CHECK(ready.status == 503);
  CHECK(ready.body == "not ready: shutting_down (draining)\n");
  warden.end_drain();
  CHECK(client.fetch(url(*endpoints, "/readyz")).body == "not ready: gone\n");
  CHECK(client.fetch(url(*endpoints, "/healthz")).status == 200);
}

TEST_CASE("other paths are 404, other methods 405 with Allow, HEAD has no body") {
  metrics_registry registry{"0.1.0", started_at};
  auto endpoints = start_or_fail(registry);
  http_client client;
  CHECK(client.fetch(url(*endpoints, "/")).status == 404);
  CHECK(client.fetch(url(*endpoints, "/metrics/extra")).status == 404);
  const auto post = client.fetch(url(*endpoints, "/metrics"), "POST");
  CHECK(post.status == 405);
  CHECK(post.allow == "GET, HEAD");
  const auto head = client.fetch(url(*endpoints, "/healthz"), "HEAD");
  INFO(head.error);
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(head.content_length == "3");
}

TEST_CASE("a keep-alive client makes several requests on one connection") {
  metrics_registry registry{"0.1.0", started_at};
  auto endpoints = start_or_fail(registry);
  http_client client;
  CHECK(client.fetch(url(*endpoints, "/healthz")).new_connections == 1);
  CHECK(client.fetch(url(*endpoints, "/metrics")).new_connections == 0);
  CHECK(client.fetch(url(*endpoints, "/readyz")).new_connections == 0);
}

TEST_CASE("a taken port, a bad address and none are told apart, without exceptions") {
  metrics_registry registry{"0.1.0", started_at};
  auto endpoints = start_or_fail(registry);
  const auto taken = "127.0.0.1:" + std::to_string(endpoints->port());
  const auto second = http_endpoints::start(on_loopback(taken), registry);
  CHECK(second.endpoints == nullptr);
  CHECK(second.error == "cannot listen for HTTP on " + taken + ": bind: Address already in use");
  const auto bad = http_endpoints::start(on_loopback("127.0.0.1"), registry);
  CHECK(bad.endpoints == nullptr);
  CHECK_THAT(bad.error, Catch::StartsWith("invalid HTTP listen address \"127.0.0.1\""));
  const auto unassigned = http_endpoints::start(on_loopback("192.0.2.1:0"), registry);
  CHECK_THAT(unassigned.error, Catch::Contains("bind: Cannot assign requested address"));
  const auto disabled = http_endpoints::start(on_loopback("none"), registry);
  CHECK(disabled.endpoints == nullptr);
  CHECK(disabled.error.empty());
}

TEST_CASE("an oversized request gets 431, closes and counts as an error") {
  metrics_registry registry{"0.1.0", started_at};
  auto endpoints = start_or_fail(registry);
  const int socket = connect_loopback(endpoints->port());
  REQUIRE(socket >= 0);
  const std::string request =
      "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(16 * 1024, 'a') + "\r\n\r\n";
  const auto answer = exchange_raw(socket, request, 5s);
  ::close(socket);
  CHECK_THAT(answer.received, Catch::StartsWith("HTTP/1.1 431"));
  CHECK(answer.closed_by_server);
  http_client client;
  CHECK_THAT(client.fetch(url(*endpoints, "/metrics")).body,
             Catch::Contains("runwarden_errors_total{kind=\"http_request\"} 1\n"));
}

TEST_CASE("an idle connection is closed after the read timeout") {
  metrics_registry registry{"0.1.0", started_at};
  http_limits limits;
  limits.read_timeout = 200ms;
  auto endpoints = start_or_fail(registry, limits);
  const int socket = connect_loopback(endpoints->port());
  REQUIRE(socket >= 0);
  const auto began = std::chrono::steady_clock::now();
  const auto answer = exchange_raw(socket, "", 5s);
  ::close(socket);
  CHECK(answer.closed_by_server);
  CHECK(answer.received.empty());
  CHECK(std::chrono::steady_clock::now() - began < 3s);
}

// Idle connections cost an attacker nothing, so at the limit the one that has waited
// longest for a request (at least eviction_wait_min) gives way to the newcomer, and
// /healthz still answers.
TEST_CASE("beyond the connection limit the longest-waiting connection gives way") {
  metrics_registry registry{"0.1.0", started_at};
  http_limits limits;
  limits.connections_max = 2;
  limits.eviction_wait_min = 100ms;
  auto endpoints = start_or_fail(registry, limits);
  const int oldest = connect_loopback(endpoints->port());
  REQUIRE(oldest >= 0);
  std::this_thread::sleep_for(50ms);  // accepted, and waiting, before the next one
  const int younger = connect_loopback(endpoints->port());
  REQUIRE(younger >= 0);
  std::this_thread::sleep_for(50ms);
  http_client newcomer;
  CHECK(newcomer.fetch(url(*endpoints, "/healthz"), "GET", 5s).status == 200);
  const auto evicted = exchange_raw(oldest, "", 5s);
  CHECK(evicted.closed_by_server);
  // The younger one kept its slot: it is answered on the connection it holds.
  const auto kept =
      exchange_raw(younger, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 5s);
  CHECK_THAT(kept.received, Catch::StartsWith("HTTP/1.1 200"));
  ::close(oldest);
  ::close(younger);
}

// A request that trickles in is bounded by one deadline for the whole request, not per byte.
TEST_CASE("a request sent a byte at a time is cut off at the read timeout") {
  metrics_registry registry{"0.1.0", started_at};
  http_limits limits;
  limits.read_timeout = 300ms;
  auto endpoints = start_or_fail(registry, limits);
  const int socket = connect_loopback(endpoints->port());
  REQUIRE(socket >= 0);
  const auto began = std::chrono::steady_clock::now();
  const std::string partial = "GET /healthz HTTP/1.1\r\nX-Slow: ";
  bool cut_off = false;
  for (int sent = 0; sent < 200 && !cut_off; ++sent) {
    const char byte = partial[static_cast<std::size_t>(sent) % partial.size()];
    cut_off = ::send(socket, &byte, 1, MSG_NOSIGNAL) != 1;
    std::this_thread::sleep_for(50ms);
  }
  ::close(socket);
  CHECK(cut_off);
  CHECK(std::chrono::steady_clock::now() - began < 5s);
}

TEST_CASE("many clients at once are all served through a few connection slots") {
  metrics_registry registry{"0.1.0", started_at};
  http_limits limits;
  limits.connections_max = 4;
  auto endpoints = start_or_fail(registry, limits);
  constexpr int clients = 32;
  constexpr int requests_per_client = 5;
  std::atomic<int> served{0};
  std::vector<std::thread> threads;
  for (int client = 0; client < clients; ++client) {
    threads.emplace_back([&] {
      http_client own;
      for (int request = 0; request < requests_per_client; ++request) {
        if (own.fetch(url(*endpoints, "/metrics"), "GET", 20s).status == 200) ++served;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(served == clients * requests_per_client);
}

TEST_CASE("stop closes the port and may be called twice") {
  metrics_registry registry{"0.1.0", started_at};
  auto endpoints = start_or_fail(registry);
  const int idle = connect_loopback(endpoints->port());
  REQUIRE(idle >= 0);
  endpoints->stop();
  endpoints->stop();
  CHECK(exchange_raw(idle, "", 2s).closed_by_server);
  ::close(idle);
  CHECK(connect_loopback(endpoints->port()) < 0);
}
