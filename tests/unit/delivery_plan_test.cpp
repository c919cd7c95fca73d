// What one notification sends where: the plan is checked for the webhook alone, callbacks
// at gone (and never before), methods and headers passed through, the signature on the
// webhook only, and refused callbacks reported without their secrets.

#include "src/webhook/delivery_plan.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "src/webhook/body_signature.hpp"

namespace {

using namespace runwarden;

std::optional<std::string> header(const planned_delivery& d, const std::string& name) {
  for (const auto& [key, value] : d.headers)
    if (key == name) return value;
  return std::nullopt;
}

const std::optional<webhook_target> webhook =
    parse_webhook_target("https://hooks.example.com/runwarden").target;
const std::vector<shutdown_callback> no_callbacks;

}  // namespace

TEST_CASE("the webhook gets a signed JSON POST", "[webhook]") {
  const auto plan = plan_deliveries({.kind = notification_kind::drain_started,
                                     .callbacks = no_callbacks,
                                     .webhook = webhook,
                                     .secret = "Jefe",
                                     .body = "{}",
                                     .version = "0.1.0"});
  REQUIRE(plan.deliveries.size() == 1);
  const auto& d = plan.deliveries[0];
  CHECK(d.method == "POST");
  CHECK_FALSE(d.is_callback);
  CHECK(d.target.url == "https://hooks.example.com/runwarden");
  CHECK(header(d, "Content-Type") == "application/json");
  CHECK(header(d, "User-Agent") == "runwarden/0.1.0");
  CHECK(header(d, "X-Runwarden-Signature") == signature_header_value("Jefe", "{}"));
}

TEST_CASE("without a secret there is no signature, without a URL no webhook", "[webhook]") {
  const auto unsigned_plan = plan_deliveries({.kind = notification_kind::gone,
                                              .callbacks = no_callbacks,
                                              .webhook = webhook,
                                              .secret = "",
                                              .body = "{}",
                                              .version = "v"});
  REQUIRE(unsigned_plan.deliveries.size() == 1);
  CHECK_FALSE(header(unsigned_plan.deliveries[0], "X-Runwarden-Signature"));
  const auto none = plan_deliveries({.kind = notification_kind::gone,
                                     .callbacks = no_callbacks,
                                     .webhook = std::nullopt,
                                     .secret = "k",
                                     .body = "{}",
                                     .version = "v"});
  CHECK(none.deliveries.empty());
  CHECK(none.rejected.empty());
}

TEST_CASE("callbacks go out at gone only, as gitlab-runner's wrapper sends them", "[webhook]") {
  const std::vector<shutdown_callback> callbacks{
      {"http://127.0.0.1:9/first", "", {}},
      {"https://ci.example.com/done?token=t",
       "PUT",
       {{"Authorization", "Bearer abc"}, {"content-type", "application/vnd.ci+json"}}},
  };
  const auto started = plan_deliveries({.kind = notification_kind::drain_started,
                                        .callbacks = callbacks,
                                        .webhook = webhook,
                                        .secret = "k",
                                        .body = "{}",
                                        .version = "v"});
  CHECK(started.deliveries.size() == 1);
  const auto gone = plan_deliveries({.kind = notification_kind::gone,
                                     .callbacks = callbacks,
                                     .webhook = webhook,
                                     .secret = "k",
                                     .body = "{}",
                                     .version = "v"});
  REQUIRE(gone.deliveries.size() == 3);
  const auto& first = gone.deliveries[1];
  CHECK(first.is_callback);
  CHECK(first.method == "GET");  // Go's http.NewRequest reads an empty method as GET
  CHECK(first.target.url == "http://127.0.0.1:9/first");
  CHECK(first.body.empty());
  CHECK_FALSE(header(first, "Content-Type"));
  CHECK_FALSE(header(first, "X-Runwarden-Signature"));
  CHECK(gone.deliveries[0].body == "{}");
  const auto& second = gone.deliveries[2];
  CHECK(second.method == "PUT");
  CHECK(header(second, "Authorization") == "Bearer abc");
  // Go's Header.Add writes the canonical form of the caller's name.
  CHECK(header(second, "Content-Type") == "application/vnd.ci+json");
  CHECK_FALSE(header(second, "content-type"));
  CHECK(second.body.empty());
  CHECK(header(second, "User-Agent") == "runwarden/v");
}

TEST_CASE("unsafe callbacks are refused, each with a reason", "[webhook]") {
  const std::vector<shutdown_callback> callbacks{
      {"ftp://ci.example.com/x", "", {}},
      {"https://ci.example.com/x?token=t", "PO ST", {}},
      {"https://ci.example.com/x?token=t", "POST", {{"X-Bad", "a\r\nX-Injected: 1"}}},
      {"https://ci.example.com/x?token=t", "POST", {{"Bad Name", "v"}}},
      {"https://user:pw@ci.example.com/", "POST", {}},
  };
  const auto plan = plan_deliveries({.kind = notification_kind::gone,
                                     .callbacks = callbacks,
                                     .webhook = std::nullopt,
                                     .secret = "",
                                     .body = "{}",
                                     .version = "v"});
  CHECK(plan.deliveries.empty());
  REQUIRE(plan.rejected.size() == 5);
  CHECK_THAT(plan.rejected[0], Catch::Contains("scheme \"ftp\""));
  CHECK_THAT(plan.rejected[1], Catch::Contains("method"));
  CHECK_THAT(plan.rejected[2], Catch::Contains("header"));
  CHECK_THAT(plan.rejected[3], Catch::Contains("header"));
  CHECK_THAT(plan.rejected[4], Catch::Contains("user information"));
  for (const auto& reason : plan.rejected) {
    CHECK_THAT(reason, !Catch::Contains("token"));
    CHECK_THAT(reason, !Catch::Contains("pw"));
  }
}

// Issue 31: a caller's Host, Content-Length or Transfer-Encoding went to libcurl as they were
// (a reframed request, or one smuggled behind it), and an empty value made libcurl drop its
// own header of that name. Go's net/http, which gitlab-runner's wrapper uses, sends none of
// them from the header map.
TEST_CASE("callback headers go out as Go's net/http sends them", "[webhook]") {
  const std::vector<shutdown_callback> callbacks{
      {"http://127.0.0.1:9/done",
       "POST",
       {{"host", "evil.example"},
        {"Content-Length", "5"},
        {"transfer-encoding", "chunked"},
        {"TRAILER", "x"},
        {"x-ci-job", "7"},
        {"Authorization", ""},
        {"user-agent", "grit"}}},
  };
  const auto plan = plan_deliveries({.kind = notification_kind::gone,
                                     .callbacks = callbacks,
                                     .webhook = std::nullopt,
                                     .secret = "",
                                     .body = "{}",
                                     .version = "v"});
  REQUIRE(plan.deliveries.size() == 1);
  const auto& sent = plan.deliveries[0].headers;
  for (const auto& [name, value] : sent) {
    CAPTURE(name);
    CHECK(name != "Host");
    CHECK(name != "Content-Length");
    CHECK(name != "Transfer-Encoding");
    CHECK(name != "Trailer");
    CHECK(name != "Authorization");
    CHECK_FALSE(value.empty());
  }
  CHECK(header(plan.deliveries[0], "X-Ci-Job") == "7");
  CHECK(header(plan.deliveries[0], "User-Agent") == "grit");  // Go takes the caller's
}
