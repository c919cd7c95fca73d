#pragma once
// What each HTTP path answers, apart from the connection handling: /metrics, /healthz and
// /readyz for GET and HEAD, 405 for other methods, 404 for other paths. Kept free of Beast
// so that the answers can be tested without a socket.

#include <string>
#include <string_view>

#include "src/telemetry/metrics_registry.hpp"

namespace runwarden {

inline constexpr std::string_view plain_text_content_type = "text/plain; charset=utf-8";

struct http_answer {
  unsigned status = 200;
  std::string content_type;
  std::string body;   // sent for GET; for HEAD only its length is
  std::string allow;  // the Allow header of a 405, else empty
};

// `target` is the request target as sent ("/metrics", "/metrics?x=1").
http_answer answer_request(std::string_view method, std::string_view target,
                           const metrics_registry& registry);

}  // namespace runwarden
