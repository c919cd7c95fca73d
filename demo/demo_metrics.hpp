#pragma once
// The demo runner's /metrics, named as gitlab-runner names its series, so runwarden shows the
// demo's jobs counting down during a drain exactly as it would a real runner's. It answers
// from the demo's one loop: the loop polls fd() with its signalfd and calls answer_one()
// when a connection waits. HTTP is Boost.Beast's; each connection gets one answer and is
// closed, with a short receive timeout so a silent client cannot stall the jobs.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace demo {

struct runner_figures {
  std::uint64_t jobs_running = 0;
  int concurrency = 0;
  bool draining = false;
};

class metrics_endpoint {
 public:
  // Listens on "HOST:PORT" (gitlab-runner's --listen-address); on failure `error` says why.
  static std::unique_ptr<metrics_endpoint> open(const std::string& address, std::string& error);

  int fd();
  // Accepts one waiting connection and answers its one request.
  void answer_one(const runner_figures& figures);

 private:
  explicit metrics_endpoint(boost::asio::ip::tcp::endpoint endpoint);

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
};

// The page itself, Prometheus text format 0.0.4.
std::string metrics_page(const runner_figures& figures);

}  // namespace demo
