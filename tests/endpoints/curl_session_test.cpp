// The HTTP port's libcurl session against runwarden's own HTTP endpoints on loopback: the
// body and the final response's headers come back, a body over the cap fails the request
// with a message saying so, and the session stays usable after a failure.
#include <catch2/catch.hpp>

#include "src/control/http_endpoints.hpp"
#include "src/ports/http/curl_transfer.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

std::string header_value(const http_response& response, const std::string& name) {
  for (const auto& [key, value] : response.headers)
    if (key == name) return value;
  return "<missing>";
}

}  // namespace

TEST_CASE("a curl session returns body and lower-cased headers, and enforces the body cap") {
  metrics_registry registry{"0.1.0", std::chrono::system_clock::time_point{1700000000s}};
  control_settings settings;
  settings.http_listen = "127.0.0.1:0";
  auto started = http_endpoints::start(settings, registry);
  REQUIRE(started.error.empty());
  const std::string base = "http://" + started.endpoints->address();
  curl_session session;
  http_request request{.id = 7, .method = "GET", .url = base + "/healthz", .timeout = 5s};

  auto response = session.perform(request);
  INFO(response.transport_error);
  CHECK(response.id == 7);
  REQUIRE(response.status_code == 200);
  CHECK(response.body == "ok\n");
  CHECK(header_value(response, "content-type") == "text/plain; charset=utf-8");
  CHECK(header_value(response, "content-length") == "3");

  request.url = base + "/metrics";
  request.max_response_bytes = 10;
  response = session.perform(request);
  CHECK_FALSE(response.status_code.has_value());
  CHECK(response.transport_error == "the response body is larger than 10 bytes");
  CHECK(response.body.empty());

  request.max_response_bytes = 1 << 20;
  response = session.perform(request);
  REQUIRE(response.status_code == 200);
  CHECK_THAT(response.body, Catch::Contains("runwarden_build_info"));

  request.url = base + "/nowhere";
  CHECK(session.perform(request).status_code == 404);
}
