// The HTTP port's bounded queue, with real sockets: a loopback server accepts the first
// request's connection and never answers, so the worker thread is known to be busy with it
// (the accept is the proof, not a sleep). Then exactly http_worker::queue_length_max more
// requests are queued, and the next one is answered at once with an error saying the port
// is busy, before any queued one; stopping the worker answers every queued request too, so
// each message still gets exactly one answer.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <set>
#include <thread>

#include "actors/http_port/http_port_actor.hpp"
#include "caf/all.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

// A loopback TCP listener that accepts when asked and never writes a byte.
class silent_server {
 public:
  silent_server() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener_ >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener_, 128) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
  }
  ~silent_server() {
    hang_up();
    ::close(listener_);
  }
  silent_server(const silent_server&) = delete;
  silent_server& operator=(const silent_server&) = delete;

  // True once a client connected, within `wait`.
  bool accept_one(std::chrono::milliseconds wait) {
    pollfd ready{listener_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(wait.count())) != 1) return false;
    const int connection = ::accept(listener_, nullptr, nullptr);
    if (connection < 0) return false;
    accepted_.push_back(connection);
    return true;
  }

  // Closes every accepted connection: a client waiting on one reads an empty reply.
  void hang_up() {
    for (int connection : accepted_) ::close(connection);
    accepted_.clear();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/slow"; }

 private:
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::vector<int> accepted_;
};

}  // namespace

TEST_CASE("a full HTTP port queue refuses the next request at once, with an answer",
          "[http_port][bounds]") {
  caf::actor_system_config config;
  caf::actor_system system{config};
  silent_server server;
  auto worker = std::make_shared<http_worker>();
  auto port = system.spawn(http_port, worker, nullptr);
  caf::scoped_actor asker{system};
  const auto request = [&](std::uint64_t id) {
    return http_request{.id = id, .method = "GET", .url = server.url(), .timeout = 60s};
  };

  asker->send(port, request(0));
  REQUIRE(server.accept_one(30s));  // the worker is now inside request 0
  const std::uint64_t refused_id = http_worker::queue_length_max + 1;
  for (std::uint64_t id = 1; id <= refused_id; ++id) asker->send(port, request(id));

  bool refused_first = false;
  asker->receive(
      [&](const http_response& response) {
        refused_first = response.id == refused_id;
        CHECK(response.transport_error.find("queue full") != std::string::npos);
        CHECK_FALSE(response.status_code);
      },
      caf::after(30s) >> [] { FAIL("no answer to the request past the queue's end"); });
  CHECK(refused_first);

  // Stopping answers the queued requests at once and ends request 0 at its timeout at the
  // latest; hanging up ends it sooner.
  std::thread stopper{[&] { worker->stop(); }};
  std::set<std::uint64_t> answered;
  for (std::size_t i = 0; i < http_worker::queue_length_max; ++i)
    asker->receive([&](const http_response& response) { answered.insert(response.id); },
                   caf::after(30s) >> [] { FAIL("a queued request got no answer"); });
  std::set<std::uint64_t> queued;
  for (std::uint64_t id = 1; id <= http_worker::queue_length_max; ++id) queued.insert(id);
  CHECK(answered == queued);
  server.hang_up();
  stopper.join();
  asker->receive([](const http_response& response) { CHECK(response.id == 0); },
                 caf::after(30s) >> [] { FAIL("request 0 got no answer"); });
  caf::anon_send_exit(port, caf::exit_reason::user_shutdown);
}
