// What each HTTP path answers, without a socket: the routes read a registry fed by hand, so
// the status codes, content types and bodies probes and scrapers rely on are pinned here.
#include <catch2/catch.hpp>

#include "src/control/http_routes.hpp"
#include "src/telemetry/exposition_writer.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

const auto started_at = std::chrono::system_clock::time_point{1700000000s};

// Moves the registry's status as the warden would, through one change_status effect.
void move_to(metrics_registry& registry, std::uint64_t version, warden_status from,
             warden_status to, drain_phase phase = drain_phase::none) {
  warden_snapshot snapshot;
  snapshot.version = version;
  snapshot.status = to;
  snapshot.phase = phase;
  snapshot.trigger = trigger_source::control_api;
  registry.observe(change_status{from, to}, snapshot);
}

}  // namespace

TEST_CASE("/healthz answers ok whatever the state") {
  const metrics_registry registry{"1.2.3", started_at};
  const auto answer = answer_request("GET", "/healthz", registry);
  CHECK(answer.status == 200);
  CHECK(answer.content_type == "text/plain; charset=utf-8");
  CHECK(answer.body == "ok\n");
}

TEST_CASE("/readyz is 200 only while running and 503 with the state otherwise") {
  metrics_registry registry{"1.2.3", started_at};
  CHECK(answer_request("GET", "/readyz", registry).status == 503);
  CHECK(answer_request("GET", "/readyz", registry).body == "not ready: starting\n");
  move_to(registry, 1, warden_status::starting, warden_status::running);
  CHECK(answer_request("GET", "/readyz", registry).status == 200);
  CHECK(answer_request("GET", "/readyz", registry).body == "ready\n");
  move_to(registry, 2, warden_status::running, warden_status::shutting_down, drain_phase::draining);
  CHECK(answer_request("GET", "/readyz", registry).status == 503);
  CHECK(answer_request("GET", "/readyz", registry).body == "not ready: shutting_down (draining)\n");
  move_to(registry, 3, warden_status::shutting_down, warden_status::gone, drain_phase::done);
  CHECK(answer_request("HEAD", "/readyz", registry).body == "not ready: gone\n");
}

TEST_CASE("/metrics answers the exposition text with its content type") {
  const metrics_registry registry{"1.2.3", started_at};
  const auto answer = answer_request("GET", "/metrics?name[]=x", registry);
  CHECK(answer.status == 200);
  CHECK(answer.content_type == "text/plain; version=0.0.4; charset=utf-8");
  const auto families = registry.collect();
  CHECK(answer.body == write_exposition(families));
}

TEST_CASE("unknown paths are 404 and other methods 405 with Allow") {
  const metrics_registry registry{"1.2.3", started_at};
  CHECK(answer_request("GET", "/", registry).status == 404);
  CHECK(answer_request("GET", "/metrics/", registry).status == 404);
  CHECK(answer_request("POST", "/nowhere", registry).status == 404);
  const auto post = answer_request("POST", "/metrics", registry);
  CHECK(post.status == 405);
  CHECK(post.allow == "GET, HEAD");
  CHECK(answer_request("DELETE", "/healthz", registry).status == 405);
  CHECK(answer_request("GET", "/healthz", registry).allow.empty());
}
