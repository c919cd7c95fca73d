// What a shutdown call may carry, as tables: callbacks that must pass, callbacks that must
// be refused with the words the caller will read, and deadlines on both sides of each
// bound. The wire conversion is checked on the generated message itself, so that header
// order (a protobuf map has none) cannot leak into what the warden sees.

#include "src/control/shutdown_request_check.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "runwarden/v1/warden.pb.h"

namespace {

using runwarden::shutdown_callback;

struct refused_callback {
  shutdown_callback callback;
  std::string error_part;
};

shutdown_callback to(std::string url) { return shutdown_callback{std::move(url), "", {}}; }

}  // namespace

TEST_CASE("callbacks to http(s) URLs with a host pass", "[control][input]") {
  const auto url = GENERATE(as<std::string>{}, "http://example.com", "https://a.b/c?d=e#f",
                            "HTTP://example.com:8080/x", "http://user:pw@host:1/",
                            "http://[::1]:9000/done", "http://10.0.0.1/");
  CAPTURE(url);
  CHECK_FALSE(runwarden::callback_problem(to(url)));
}

TEST_CASE("callbacks take what gitlab-runner's wrapper takes", "[control][input]") {
  // helpers/runner_wrapper/api/shutdown_callback.go: http.NewRequestWithContext(method, url)
  // and req.Header.Add for each header; any method token is sent as written.
  CHECK_FALSE(runwarden::callback_problem(shutdown_callback{"http://h/", "get", {}}));
  CHECK_FALSE(runwarden::callback_problem(shutdown_callback{"http://h/", "PATCH", {}}));
  shutdown_callback many = to("http://h/");
  for (int index = 0; index < 256; ++index)
    many.headers.emplace_back("X-" + std::to_string(index), "v");
  CHECK_FALSE(runwarden::callback_problem(many));
  CHECK_FALSE(runwarden::callback_problem(
      shutdown_callback{"http://h/", "", {{"X-Big", std::string(40000, 'b')}}}));
  // The operator's webhook.allow_link_local lets metadata targets through.
  CHECK_FALSE(runwarden::callback_problem(to("http://169.254.169.254/x"), true));
}

TEST_CASE("bad callbacks are refused with a reason", "[control][input]") {
  shutdown_callback many = to("http://h/");
  for (int index = 0; index < 257; ++index)
    many.headers.emplace_back("X-" + std::to_string(index), "v");
  const auto row = GENERATE_COPY(values<refused_callback>({
      {to(""), "needs a url"},
      {to("ftp://example.com/x"), "http:// or https://"},
      {to("example.com/x"), "http:// or https://"},
      {to("http://"), "no valid host"},
      {to("http://exa mple.com/"), "spaces or control characters"},
      {to("http://host:0/"), "port"},
      {to("http://host:99999/"), "port"},
      {to("http://host:/"), "port"},
      {to("http://[::1/"), "IPv6"},
      {to("https://" + std::string(2100, 'a')), "longer than"},
      {shutdown_callback{"http://h/", "PO ST", {}}, "method"},
      {shutdown_callback{"http://h/", "SUPERLONGMETHODNAME", {}}, "method"},
      {to("http://169.254.169.254/latest/meta-data"), "instance-metadata target"},
      {to("http://[fe80::1]/"), "link-local"},
      {to("http://[fd00:ec2::254]/"), "rule: runwarden never lets"},
      {to("http://metadata.google.internal/computeMetadata/v1/"), "instance-metadata"},
      {to("http://Metadata.Google.Internal./x"), "instance-metadata"},
      {to("http://100.100.100.200/latest/meta-data/"), "instance-metadata"},
      {to("http://[::a9fe:a9fe]/latest/meta-data/"), "instance-metadata"},
      {to("http://[64:ff9b::a9fe:a9fe]/latest/meta-data/"), "instance-metadata"},
      {to("http://[64:ff9b::169.254.170.2]/v2/credentials"), "instance-metadata"},
      {to("http://192.0.0.192/opc/v1/instance/"), "instance-metadata"},
      {to("http://metadata.tencentyun.com/latest/"), "instance-metadata"},
      {shutdown_callback{"http://h/", "POST", {{"X-A", "one\r\nX-B: two"}}}, "line break"},
      {shutdown_callback{"http://h/", "POST", {{"Bad Name", "v"}}}, "not a valid name"},
      {shutdown_callback{"http://h/", "POST", {{"X-Big", std::string(49 * 1024, 'b')}}},
       "more than 49152 bytes"},
      {many, "at most 256 headers"},
  }));
  CAPTURE(row.callback.url, row.error_part);
  const auto problem = runwarden::callback_problem(row.callback);
  REQUIRE(problem);
  CHECK_THAT(*problem, Catch::Contains(row.error_part));
}

TEST_CASE("deadlines are zero or positive and at most 30 days", "[control][input]") {
  google::protobuf::Duration wire;
  wire.set_seconds(90);
  wire.set_nanos(500'000'000);
  CHECK(runwarden::deadline_from_wire(wire).relative == std::chrono::milliseconds{90'500});
  wire.set_seconds(0);
  wire.set_nanos(0);
  CHECK(runwarden::deadline_from_wire(wire).relative == std::chrono::nanoseconds{0});
  wire.set_seconds(-1);
  CHECK_THAT(runwarden::deadline_from_wire(wire).error, Catch::Contains("negative"));
  wire.set_seconds(0);
  wire.set_nanos(-1);
  CHECK_THAT(runwarden::deadline_from_wire(wire).error, Catch::Contains("negative"));
  wire.set_seconds(1);
  wire.set_nanos(-1);
  CHECK_THAT(runwarden::deadline_from_wire(wire).error, Catch::Contains("not a valid"));
  wire.set_seconds(30LL * 24 * 3600);
  wire.set_nanos(0);
  CHECK(runwarden::deadline_from_wire(wire).relative);
  wire.set_nanos(1);
  CHECK_THAT(runwarden::deadline_from_wire(wire).error, Catch::Contains("longer than"));
  wire.set_seconds(std::numeric_limits<std::int64_t>::max());
  wire.set_nanos(0);
  CHECK_THAT(runwarden::deadline_from_wire(wire).error, Catch::Contains("longer than"));
  wire.set_seconds(std::numeric_limits<std::int64_t>::min());
  CHECK_THAT(runwarden::deadline_from_wire(wire).error, Catch::Contains("negative"));
}

TEST_CASE("callbacks from the wire: empty means none, headers sorted", "[control][input]") {
  runwarden::v1::ShutdownCallback wire;
  CHECK_FALSE(runwarden::callback_from_wire(wire));
  wire.set_url("http://h/");
  (*wire.mutable_headers())["X-B"] = "2";
  (*wire.mutable_headers())["X-A"] = "1";
  const auto callback = runwarden::callback_from_wire(wire);
  REQUIRE(callback);
  CHECK(callback->url == "http://h/");
  CHECK(callback->headers ==
        std::vector<std::pair<std::string, std::string>>{{"X-A", "1"}, {"X-B", "2"}});
}
