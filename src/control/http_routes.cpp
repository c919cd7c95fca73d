// See http_routes.hpp. /healthz says only that the process can answer; /readyz says whether
// new jobs belong here, which is false from the moment a drain begins, so a load balancer or
// a Kubernetes readiness probe stops sending work before the runner is asked to stop.
#include "src/control/http_routes.hpp"

#include "src/telemetry/exposition_writer.hpp"

namespace runwarden {

namespace {

http_answer text_answer(unsigned status, std::string body) {
  return http_answer{status, std::string{plain_text_content_type}, std::move(body), {}};
}

http_answer readiness_answer(const metrics_registry& registry) {
  const auto now = registry.current_readiness();
  if (now.ready) return text_answer(200, "ready\n");
  std::string state{to_string(now.status)};
  if (now.phase != drain_phase::none && now.phase != drain_phase::done)
    state += " (" + std::string{to_string(now.phase)} + ")";
  return text_answer(503, "not ready: " + state + "\n");
}

}  // namespace

http_answer answer_request(std::string_view method, std::string_view target,
                           const metrics_registry& registry) {
  const auto path = target.substr(0, target.find('?'));
  const bool known = path == "/metrics" || path == "/healthz" || path == "/readyz";
  if (!known) return text_answer(404, "not found\n");
  if (method != "GET" && method != "HEAD") {
    auto answer = text_answer(405, "method not allowed\n");
    answer.allow = "GET, HEAD";
    return answer;
  }
  if (path == "/healthz") return text_answer(200, "ok\n");
  if (path == "/readyz") return readiness_answer(registry);
  const auto families = registry.collect();
  return http_answer{200, std::string{exposition_content_type}, write_exposition(families), {}};
}

}  // namespace runwarden
