// See http_endpoints.hpp. Teardown order matters with asio: the listener (its acceptor and
// timer) goes while the io_context still exists, then the io_context, whose destruction
// frees the sessions still waiting in its handlers. `running` declares its members so.
#include "src/control/http_endpoints.hpp"

#include <system_error>
#include <thread>
#include <utility>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "src/config/listen_address.hpp"
#include "src/control/http_listener.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

using boost::asio::ip::tcp;

// Clients beyond the connection limit wait here, in the kernel.
constexpr int listen_backlog_max = 128;

// Binds and listens; returns the failing step and the system's reason, or empty.
std::string open_acceptor(tcp::acceptor& acceptor, const tcp_address& address) {
  boost::system::error_code error;
  tcp::resolver resolver{acceptor.get_executor()};
  const auto found =
      resolver.resolve(address.host, std::to_string(address.port),
                       tcp::resolver::passive | tcp::resolver::numeric_service, error);
  if (error) return "cannot resolve \"" + address.host + "\": " + error.message();
  if (found.empty()) return "\"" + address.host + "\" resolves to no address";
  const tcp::endpoint endpoint = found.begin()->endpoint();
  acceptor.open(endpoint.protocol(), error);
  if (error) return "socket: " + error.message();
  acceptor.set_option(tcp::acceptor::reuse_address(true), error);
  if (error) return "setsockopt SO_REUSEADDR: " + error.message();
  acceptor.bind(endpoint, error);
  if (error) return "bind: " + error.message();
  acceptor.listen(listen_backlog_max, error);
  if (error) return "listen: " + error.message();
  return {};
}

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const auto host = endpoint.address().to_string();
  return (endpoint.address().is_v6() ? "[" + host + "]" : host) + ":" +
         std::to_string(endpoint.port());
}

void run_io(boost::asio::io_context& io) {
  try {
    io.run();
  } catch (const std::exception& error) {
    // The warden goes on without its endpoints rather than ending the process.
    warden_logger()->error("HTTP endpoints stopped: {}", error.what());
  }
}

}  // namespace

struct http_endpoints::running {
  boost::asio::io_context io{1};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::shared_ptr<http_listener> listener;
  std::thread thread;
};

http_endpoints::http_endpoints(std::unique_ptr<running> serving, std::uint16_t port,
                               std::string address)
    : running_(std::move(serving)), port_(port), address_(std::move(address)) {}

http_endpoints::~http_endpoints() { stop(); }

http_start_result http_endpoints::start(const control_settings& settings,
                                        metrics_registry& registry, const http_limits& limits) {
  if (settings.http_listen == "none") return {};
  const auto parsed = parse_listen_address("tcp://" + settings.http_listen);
  if (!parsed.error.empty())
    return {nullptr, "invalid HTTP listen address \"" + settings.http_listen +
                         "\" (want HOST:PORT, [IPv6]:PORT or none): " + parsed.error};
  auto serving = std::make_unique<running>();
  tcp::acceptor acceptor{serving->io};
  if (auto error = open_acceptor(acceptor, std::get<tcp_address>(parsed.address)); !error.empty())
    return {nullptr, "cannot listen for HTTP on " + settings.http_listen + ": " + error};
  boost::system::error_code error;
  const auto local = acceptor.local_endpoint(error);
  if (error)
    return {nullptr, "cannot listen for HTTP on " + settings.http_listen +
                         ": getsockname: " + error.message()};
  serving->listener = std::make_shared<http_listener>(std::move(acceptor), registry, limits);
  serving->listener->start();
  try {
    serving->thread = std::thread([&io = serving->io] { run_io(io); });
  } catch (const std::system_error& failed) {
    return {nullptr, "cannot start the HTTP thread: " + std::string{failed.what()}};
  }
  std::unique_ptr<http_endpoints> endpoints{
      new http_endpoints(std::move(serving), local.port(), endpoint_text(local))};
  warden_logger()->info("HTTP listening on {}", endpoints->address());
  return {std::move(endpoints), {}};
}

void http_endpoints::stop() {
  if (!running_) return;
  running_->io.stop();
  running_->thread.join();
  running_.reset();
}

}  // namespace runwarden
