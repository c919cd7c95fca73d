// The HTTP port's plain-HTTP client on a real io thread against real loopback servers:
// Python's http.server speaking HTTP/1.1 with keep-alive (keepalive_server.py, which reports
// every request with the client port that names its connection, and every connection it
// closed), and a port nobody listens on. Each test waits on what it can observe (the
// server's report, the answer) rather than on time; the only timed bound is the timeout
// test's own, checked from below (not before the timeout) and from above (no hang).
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>

#include "actors/http_port/http_port_actor.hpp"
#include "caf/all.hpp"
#include "src/ports/http/plain_http_client.hpp"
#include "src/ports/os/io_thread.hpp"
#include "tests/common/python_server.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr auto answer_wait_max = 30s;

std::string header_value(const http_response& response, const std::string& name) {
  for (const auto& [key, value] : response.headers)
    if (key == name) return value;
  return "<missing>";
}

// A loopback port that was bound and released: connecting to it is refused.
int unused_port() {
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(probe >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  ::close(probe);
  return ntohs(address.sin_port);
}

std::size_t thread_count() {
  const std::filesystem::directory_iterator tasks{"/proc/self/task"};
  return static_cast<std::size_t>(std::distance(begin(tasks), end(tasks)));
}

class fixture {
 public:
  fixture() : server_(KEEPALIVE_SERVER_SCRIPT, {}) {}
  ~fixture() {
    client_->stop();
    io_.stop();
  }

  http_request get(const std::string& path, std::chrono::milliseconds timeout = 10s) {
    return http_request{.id = ++last_id_,
                        .method = "GET",
                        .url = server_.url("127.0.0.1", path),
                        .timeout = timeout};
  }

  void submit(http_request request) {
    REQUIRE(client_->submit(std::move(request), caf::actor_cast<caf::actor>(asker_)));
  }

  http_response answer() {
    http_response got;
    asker_->receive([&](http_response& response) { got = std::move(response); },
                    caf::after(answer_wait_max) >> [] { FAIL("no answer"); });
    return got;
  }

  http_response ask(http_request request) {
    const auto id = request.id;
    submit(std::move(request));
    auto got = answer();
    CHECK(got.id == id);
    return got;
  }

  // The next request the server reported. The server reports a closed connection from the
  // thread that served it, so such a line may come before or after a request served on
  // another connection; they are set aside for closed().
  nlohmann::json seen() {
    for (;;) {
      auto lines = server_.requests(1);
      REQUIRE(lines.size() == 1);
      if (!lines[0].contains("closed")) return lines[0];
      closed_.push_back(lines[0]["closed"]);
    }
  }

  // Whether the server reported closing this connection; waits for its report.
  bool closed(const nlohmann::json& connection) {
    while (std::find(closed_.begin(), closed_.end(), connection) == closed_.end()) {
      auto lines = server_.requests(1);
      if (lines.size() != 1) return false;
      REQUIRE(lines[0].contains("closed"));  // no request is in flight while waiting
      closed_.push_back(lines[0]["closed"]);
    }
    return true;
  }

  testing::python_server& server() { return server_; }
  caf::actor_system& system() { return system_; }
  std::shared_ptr<plain_http_client> client_handle() { return client_; }
  plain_http_client& client() { return *client_; }
  caf::scoped_actor& asker() { return asker_; }

 private:
  testing::python_server server_;
  io_thread io_;
  std::shared_ptr<plain_http_client> client_ = std::make_shared<plain_http_client>(io_.context());
  caf::actor_system_config config_;
  caf::actor_system system_{config_};
  caf::scoped_actor asker_{system_};
  std::uint64_t last_id_ = 0;
  std::vector<nlohmann::json> closed_;  // connections the server reported closed
};

}  // namespace

TEST_CASE("plain HTTP: several requests share one kept-alive connection", "[plain_http]") {
  fixture f;
  auto request = f.get("/hello");
  request.headers = {{"X-aws-ec2-metadata-token", "secret-value"}};
  const auto first = f.ask(request);
  INFO(first.transport_error);
  REQUIRE(first.status_code == 200);
  CHECK(first.body == "hello");
  CHECK(header_value(first, "x-mixed-case") == "Kept");
  CHECK(header_value(first, "content-length") == "5");
  const auto seen = f.seen();
  CHECK(seen["headers"]["host"] == "127.0.0.1:" + std::to_string(f.server().port()));
  CHECK(seen["headers"]["x-aws-ec2-metadata-token"] == "secret-value");
  for (int i = 0; i < 3; ++i) {
    CHECK(f.ask(f.get("/hello")).status_code == 200);
    CHECK(f.seen()["connection"] == seen["connection"]);
  }
  // A redirect is an answer like any other; nothing follows it.
  CHECK(f.ask(f.get("/redirect")).status_code == 302);
  CHECK(f.seen()["path"] == "/redirect");
  CHECK(f.ask(f.get("/hello")).status_code == 200);
  CHECK(f.seen()["path"] == "/hello");
}

TEST_CASE("plain HTTP: a kept connection the server closed while idle is not used again",
          "[plain_http]") {
  fixture f;
  REQUIRE(f.ask(f.get("/hang-up")).status_code == 200);
  const auto first_connection = f.seen()["connection"];
  CHECK(f.closed(first_connection));  // the kept connection is now dead
  auto post = f.get("/hello");
  post.method = "POST";
  const auto after_close = f.ask(post);
  INFO(after_close.transport_error);
  CHECK(after_close.status_code == 200);
  const auto seen = f.seen();
  CHECK(seen["method"] == "POST");
  CHECK(seen["connection"] != first_connection);
}

TEST_CASE(
    "plain HTTP: a request the server drops unanswered on a kept connection is resent "
    "once, and only when idempotent",
    "[plain_http]") {
  fixture f;
  REQUIRE(f.ask(f.get("/hello")).status_code == 200);
  const auto kept = f.seen()["connection"];
  auto token = f.get("/drop-put");
  token.method = "PUT";
  const auto resent = f.ask(token);
  INFO(resent.transport_error);
  CHECK(resent.status_code == 200);
  CHECK(f.seen()["connection"] == kept);  // dropped unanswered
  const auto second = f.seen();
  CHECK(second["path"] == "/drop-put");
  CHECK(second["connection"] != kept);
  CHECK(f.closed(kept));

  // The same for a POST: it fails rather than being sent a second time.
  auto post = f.get("/drop-post");
  post.method = "POST";
  post.body = "{}";
  const auto failed = f.ask(post);
  CHECK_FALSE(failed.status_code);
  CHECK_THAT(failed.transport_error,
             Catch::StartsWith("Empty reply from server") || Catch::Contains("could not be read"));
  const auto dropped = f.seen();
  CHECK(dropped["path"] == "/drop-post");
  CHECK(f.closed(dropped["connection"]));
  // The next request the server reads is this GET: the POST never came again.
  CHECK(f.ask(f.get("/after-post")).status_code == 200);
  CHECK(f.seen()["path"] == "/after-post");
}

TEST_CASE("plain HTTP: a server that never answers times the request out, not before",
          "[plain_http]") {
  fixture f;
  const auto started = std::chrono::steady_clock::now();
  const auto timed_out = f.ask(f.get("/silent", 300ms));
  const auto waited = std::chrono::steady_clock::now() - started;
  CHECK_FALSE(timed_out.status_code);
  CHECK_THAT(timed_out.transport_error, Catch::StartsWith("Operation timed out after") &&
                                            Catch::Contains("waiting for the answer"));
  CHECK(waited >= 300ms);
  CHECK(f.seen()["path"] == "/silent");
  CHECK(f.ask(f.get("/hello")).status_code == 200);  // a new connection serves the next
}

TEST_CASE("plain HTTP: a body over the cap fails the request, and the next one works",
          "[plain_http]") {
  fixture f;
  auto request = f.get("/big");
  request.max_response_bytes = 100;
  const auto too_big = f.ask(request);
  CHECK_FALSE(too_big.status_code);
  CHECK(too_big.transport_error == "the response body is larger than 100 bytes");
  CHECK(too_big.body.empty());
  request.max_response_bytes = 1000;
  const auto fits = f.ask(request);
  CHECK(fits.status_code == 200);
  CHECK(fits.body.size() == 1000);
}

TEST_CASE("plain HTTP: a refused connection says so", "[plain_http]") {
  fixture f;
  const int port = unused_port();
  auto request = f.get("/");
  request.url = "http://127.0.0.1:" + std::to_string(port) + "/";
  const auto refused = f.ask(request);
  CHECK_FALSE(refused.status_code);
  CHECK_THAT(refused.transport_error,
             Catch::StartsWith("Failed to connect to 127.0.0.1 port " + std::to_string(port)) &&
                 Catch::EndsWith("Connection refused"));
}

TEST_CASE("plain HTTP: a pinned name connects only to its pinned addresses", "[plain_http]") {
  fixture f;
  const auto port = static_cast<std::uint16_t>(f.server().port());
  auto request = f.get("/hello");
  request.url = f.server().url("metadata.pinned.invalid", "/hello");
  request.pins = {{"metadata.pinned.invalid", port, {"127.0.0.1"}}};
  const auto pinned = f.ask(request);
  INFO(pinned.transport_error);
  CHECK(pinned.status_code == 200);
  CHECK(f.seen()["headers"]["host"] == "metadata.pinned.invalid:" + std::to_string(port));

  request.pins = {{"metadata.pinned.invalid", port, {"127.0.0.1"}}};
  request.pins[0].addresses = {"not-an-address"};
  const auto bad_pin = f.ask(request);
  CHECK_THAT(bad_pin.transport_error,
             Catch::Contains("\"not-an-address\"") && Catch::Contains("is not an address"));

  // Without a pin, the name is looked up (localhost, from /etc/hosts).
  request.pins.clear();
  request.url = f.server().url("localhost", "/looked-up");
  CHECK(f.ask(request).status_code == 200);
  CHECK(f.seen()["path"] == "/looked-up");
}

TEST_CASE("plain HTTP: stop answers the request in flight and the queued ones at once",
          "[plain_http]") {
  fixture f;
  f.submit(f.get("/silent", 60s));
  REQUIRE(f.seen()["path"] == "/silent");  // the request is in flight
  f.submit(f.get("/hello"));
  const auto started = std::chrono::steady_clock::now();
  f.client().stop();
  const auto in_flight = f.answer();
  CHECK(in_flight.id == 1);
  CHECK(in_flight.transport_error == "the HTTP port stopped during the request");
  const auto queued = f.answer();
  CHECK(queued.id == 2);
  CHECK(queued.transport_error == "the HTTP port stopped before carrying out the request");
  CHECK(std::chrono::steady_clock::now() - started < 30s);  // not the request's 60 s
  CHECK_FALSE(f.client().submit(f.get("/hello"), caf::actor_cast<caf::actor>(f.asker())));
}

TEST_CASE("the HTTP port sends plain, unproxied HTTP to the io thread", "[plain_http]") {
  http_request request{.url = "http://169.254.169.254/latest/api/token"};
  CHECK(goes_to_plain_client(request));
  request.environment_proxy = true;
  CHECK_FALSE(goes_to_plain_client(request));
  request = {.url = "https://autoscaling.eu-west-1.amazonaws.com/"};
  CHECK_FALSE(goes_to_plain_client(request));
  request = {.url = "HTTP://127.0.0.1:9252/metrics"};
  CHECK(goes_to_plain_client(request));
}

TEST_CASE(
    "the HTTP port carries plain HTTP on the io thread, and starts libcurl's thread only "
    "for the first request that needs it",
    "[plain_http]") {
  fixture f;
  auto worker = std::make_shared<http_worker>();
  auto port = f.system().spawn(http_port, worker, f.client_handle());
  const auto ask_port = [&](http_request request) {
    f.asker()->send(port, std::move(request));
    http_response got;
    f.asker()->receive([&](http_response& response) { got = std::move(response); },
                       caf::after(answer_wait_max) >> [] { FAIL("no answer"); });
    return got;
  };
  REQUIRE(ask_port(f.get("/hello")).status_code == 200);  // whatever starts lazily has started
  const auto threads = thread_count();
  for (int i = 0; i < 3; ++i) REQUIRE(ask_port(f.get("/hello")).status_code == 200);
  CHECK(thread_count() == threads);
  auto secure = f.get("/");
  secure.url = "https://127.0.0.1:" + std::to_string(unused_port()) + "/";
  CHECK_FALSE(ask_port(secure).status_code);  // refused, by libcurl on its own thread
  CHECK(thread_count() > threads);
  caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
  worker->stop();
}
