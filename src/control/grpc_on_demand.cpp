// See grpc_on_demand.hpp. Everything but start() and stop() runs on the acceptor's thread:
// the listeners, the watched connections, the quiet timer and the grpc_host, so nothing here
// takes a lock. The quiet timer is armed when the last open connection ends and cancelled by
// the next connection, so it fires only after a whole quiet period without any.
#include "src/control/grpc_on_demand.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/basic_socket_acceptor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <cstring>
#include <list>
#include <thread>
#include <utility>

#include "src/control/grpc_host.hpp"
#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

namespace asio = boost::asio;
using generic_stream = asio::generic::stream_protocol;
using generic_acceptor = asio::basic_socket_acceptor<generic_stream>;

// After a failed accept (out of file descriptors, say) wait before trying again, instead of
// spinning on an error that will not clear at once.
constexpr std::chrono::milliseconds accept_retry_delay{100};

// Each client connection holds two descriptors (gRPC's and the watched duplicate), and a
// service's soft limit is often 1,024 (systemd's default). Past this an unproven connection
// gives way to the newcomer (see grpc_on_demand.hpp); when every one is proven, clients
// wait in the kernel's listen backlog until a connection ends.
constexpr std::size_t connections_max = 256;

using steady_clock = std::chrono::steady_clock;

struct listener {
  explicit listener(asio::io_context& io) : acceptor(io), retry(io) {}
  generic_acceptor acceptor;
  asio::steady_timer retry;  // after a failed accept, or until a connection may be evicted
  bool paused = false;  // at connections_max, all proven; the next connection to end resumes it
};

// A connection handed to gRPC, watched through a duplicate of its descriptor.
struct handed_connection {
  handed_connection(asio::io_context& io, int duplicate, int fd)
      : watched(io, duplicate), deadline(io), grpc_fd(fd), accepted_at(steady_clock::now()) {}
  asio::posix::stream_descriptor watched;
  asio::steady_timer deadline;  // unproven_connection_timeout after the accept
  const int grpc_fd;            // the descriptor gRPC reads, named in its peer "fd:N"
  const steady_clock::time_point accepted_at;
};

// Opens, binds and listens; returns the failing step and the system's reason, or empty.
std::string listen_on(generic_acceptor& acceptor, const generic_stream::endpoint& where, bool tcp) {
  boost::system::error_code error;
  acceptor.open(where.protocol(), error);
  if (error) return "socket: " + error.message();
  // No program runwarden starts may hold the control socket (asio does not set this).
  if (::fcntl(acceptor.native_handle(), F_SETFD, FD_CLOEXEC) != 0)
    return std::string{"fcntl FD_CLOEXEC: "} + std::strerror(errno);
  // As gRPC's own listener: a restart may bind while old connections sit in TIME_WAIT.
  if (tcp) acceptor.set_option(asio::socket_base::reuse_address(true), error);
  if (error) return "setsockopt SO_REUSEADDR: " + error.message();
  acceptor.bind(where, error);
  if (error) return "bind: " + error.message();
  acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) return "listen: " + error.message();
  return {};
}

std::uint16_t port_of(const generic_stream::endpoint& where) {
  const sockaddr* address = where.data();
  if (address->sa_family == AF_INET6)
    return ntohs(reinterpret_cast<const sockaddr_in6*>(address)->sin6_port);
  return ntohs(reinterpret_cast<const sockaddr_in*>(address)->sin_port);
}

// Ends a connection gRPC serves: shut down both ways (through the duplicate, the same
// socket), gRPC reads the end and closes its descriptor, and the client sees it closed.
void shut_down(handed_connection& connection) {
  ::shutdown(connection.watched.native_handle(), SHUT_RDWR);
}

// The descriptor as gRPC's own listener hands it on (non-blocking, close-on-exec), and a
// close-on-exec duplicate to watch; -1 when either fails.
int prepare_for_grpc(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 ||
      ::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0)
    return -1;
  return ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

}  // namespace

class grpc_on_demand::running {
 public:
  running(const control_context& context, std::chrono::milliseconds quiet_period)
      : context_(context), quiet_period_(quiet_period) {}

  // Before the thread starts. Empty, or what failed.
  std::string listen(const listen_address& address, std::uint16_t& port);

  void start_thread();
  void stop(std::chrono::milliseconds grace);

 private:
  using watched = std::list<handed_connection>;

  std::string listen_tcp(const tcp_address& address, std::uint16_t& port);
  void accept_next(listener& on);
  void on_accepted(listener& on, generic_stream::socket connection);
  void serve(generic_stream::socket connection);
  bool start_grpc();
  void watch(int duplicate, int fd);
  void on_ended(watched::iterator position);
  void on_deadline(watched::iterator position);
  watched::iterator oldest_unproven();
  bool evictable(const handed_connection& connection) const;
  void on_quiet();
  void close(std::chrono::milliseconds grace);

  const control_context& context_;
  const std::chrono::milliseconds quiet_period_;
  bool tcp_ = false;
  // Destroyed in reverse: the server first, the io_context (and its pending handlers) last.
  asio::io_context io_{1};
  asio::executor_work_guard<asio::io_context::executor_type> work_{io_.get_executor()};
  std::list<listener> listeners_;  // lists: handlers in flight refer to their elements
  watched connections_;            // each connection gRPC serves, oldest first; connections_max
  asio::steady_timer quiet_timer_{io_};
  std::unique_ptr<grpc_host> host_;
  std::thread thread_;
};

std::string grpc_on_demand::running::listen(const listen_address& address, std::uint16_t& port) {
  if (const auto* tcp = std::get_if<tcp_address>(&address)) return listen_tcp(*tcp, port);
  const auto& path = std::get<unix_socket_address>(address).path;
  auto& on = listeners_.emplace_back(io_);
  return listen_on(on.acceptor, asio::local::stream_protocol::endpoint{path}, false);
}

// Every address the host resolves to, on one port, as gRPC listens ("localhost" is ::1 and
// 127.0.0.1); addresses this host cannot bind are skipped while at least one binds.
std::string grpc_on_demand::running::listen_tcp(const tcp_address& address, std::uint16_t& port) {
  tcp_ = true;
  boost::system::error_code error;
  asio::ip::tcp::resolver resolver{io_};
  const auto found = resolver.resolve(
      address.host, std::to_string(address.port),
      asio::ip::tcp::resolver::passive | asio::ip::tcp::resolver::numeric_service, error);
  if (error) return "cannot resolve \"" + address.host + "\": " + error.message();
  port = address.port;
  std::string problems;
  for (const auto& entry : found) {
    auto where = entry.endpoint();
    where.port(port);
    auto& on = listeners_.emplace_back(io_);
    auto problem = listen_on(on.acceptor, where, true);
    if (!problem.empty()) {
      listeners_.pop_back();
      problems += (problems.empty() ? "" : "; ") + where.address().to_string() + ": " + problem;
      continue;
    }
    if (port == 0) port = port_of(on.acceptor.local_endpoint());
  }
  if (listeners_.empty()) return problems.empty() ? "no address to listen on" : problems;
  if (!problems.empty()) warden_logger()->warn("control API: skipped {}", problems);
  return {};
}

void grpc_on_demand::running::start_thread() {
  RUNWARDEN_ASSERT(!listeners_.empty() && !thread_.joinable());
  for (auto& on : listeners_) accept_next(on);
  thread_ = std::thread{[this] {
    try {
      io_.run();
    } catch (const std::exception& error) {
      // The warden goes on without its control API rather than ending the process.
      warden_logger()->error("control API stopped: {}", error.what());
    }
  }};
}

void grpc_on_demand::running::accept_next(listener& on) {
  on.paused = false;
  if (connections_.size() >= connections_max) {
    const auto oldest = oldest_unproven();
    on.paused = oldest == connections_.end();
    if (on.paused) return;
    if (!evictable(*oldest)) {
      on.retry.expires_at(oldest->accepted_at + unproven_connection_eviction_age);
      on.retry.async_wait([this, &on](boost::system::error_code waited) {
        if (waited != asio::error::operation_aborted) accept_next(on);
      });
      return;
    }
  }
  on.acceptor.async_accept(
      [this, &on](boost::system::error_code error, generic_stream::socket connection) {
        if (error == asio::error::operation_aborted) return;
        if (!error) return on_accepted(on, std::move(connection));
        warden_logger()->warn("control API: accept failed: {}; retrying", error.message());
        on.retry.expires_after(accept_retry_delay);
        on.retry.async_wait([this, &on](boost::system::error_code waited) {
          if (waited != asio::error::operation_aborted) accept_next(on);
        });
      });
}

// At the limit the oldest unproven connection gives way; should it have been proven since
// the accept started, the newcomer is closed instead and reconnects, as after a full
// backlog. The slot count never passes connections_max.
void grpc_on_demand::running::on_accepted(listener& on, generic_stream::socket connection) {
  if (connections_.size() >= connections_max) {
    const auto oldest = oldest_unproven();
    if (oldest == connections_.end() || !evictable(*oldest)) {
      boost::system::error_code ignored;
      connection.close(ignored);
      return accept_next(on);
    }
    warden_logger()->debug(
        "control API: {} connections open; the oldest that authenticated "
        "nothing is closed for a new one",
        connections_max);
    shut_down(*oldest);
    connections_.erase(oldest);  // closes the duplicate and cancels its waits
  }
  serve(std::move(connection));
  RUNWARDEN_ASSERT(connections_.size() <= connections_max);
  accept_next(on);
}

void grpc_on_demand::running::serve(generic_stream::socket connection) {
  boost::system::error_code error;
  // As gRPC's own listener: small frames go out at once.
  if (tcp_) connection.set_option(asio::ip::tcp::no_delay(true), error);
  const int fd = connection.release(error);
  if (error) {
    warden_logger()->warn("control API: cannot take a connection: {}", error.message());
    return;
  }
  const int duplicate = prepare_for_grpc(fd);
  if (duplicate < 0) {
    warden_logger()->warn("control API: cannot take a connection: {}", std::strerror(errno));
    ::close(fd);
    return;
  }
  if (!host_ && !start_grpc()) {
    ::close(duplicate);
    ::close(fd);
    return;
  }
  quiet_timer_.cancel();
  context_.connections->forget(fd);  // before any call on it can mark it
  host_->serve_connection(fd);
  watch(duplicate, fd);
}

bool grpc_on_demand::running::start_grpc() {
  int no_port = 0;
  host_ = grpc_host::start(context_, nullptr, no_port);
  if (!host_) {
    warden_logger()->error("control API: gRPC did not start; the connection is closed");
    return false;
  }
  warden_logger()->debug("control API: gRPC started for a connection");
  return true;
}

void grpc_on_demand::running::watch(int duplicate, int fd) {
  auto& connection = connections_.emplace_back(io_, duplicate, fd);
  auto position = std::prev(connections_.end());
  connection.watched.async_wait(asio::posix::stream_descriptor::wait_error,
                                [this, position](boost::system::error_code error) {
                                  if (error != asio::error::operation_aborted) on_ended(position);
                                });
  connection.deadline.expires_after(unproven_connection_timeout);
  connection.deadline.async_wait([this, position](boost::system::error_code error) {
    if (error != asio::error::operation_aborted) on_deadline(position);
  });
}

void grpc_on_demand::running::on_ended(watched::iterator position) {
  connections_.erase(position);  // closes the duplicate
  for (auto& on : listeners_)
    if (on.paused) accept_next(on);
  if (!connections_.empty()) return;
  quiet_timer_.expires_after(quiet_period_);
  quiet_timer_.async_wait([this](boost::system::error_code waited) {
    if (waited != asio::error::operation_aborted) on_quiet();
  });
}

// A connection that carried no authorized call by now is closed; its hang-up ends it here.
void grpc_on_demand::running::on_deadline(watched::iterator position) {
  if (context_.connections->proven(position->grpc_fd)) return;
  warden_logger()->debug("control API: a connection that authenticated nothing in {} s is closed",
                         unproven_connection_timeout.count());
  shut_down(*position);
}

grpc_on_demand::running::watched::iterator grpc_on_demand::running::oldest_unproven() {
  // connections_ is in accept order, so the first unproven one is the oldest.
  return std::find_if(connections_.begin(), connections_.end(), [this](const auto& connection) {
    return !context_.connections->proven(connection.grpc_fd);
  });
}

// Only after a moment: a connection just accepted may carry its first call already.
bool grpc_on_demand::running::evictable(const handed_connection& connection) const {
  return steady_clock::now() - connection.accepted_at >= unproven_connection_eviction_age;
}

void grpc_on_demand::running::on_quiet() {
  if (!host_ || !connections_.empty()) return;
  // No connection, so no call: nothing to wait for.
  host_->stop(std::chrono::milliseconds::zero());
  host_.reset();
  warden_logger()->debug("control API: gRPC let go after {} ms without a connection",
                         quiet_period_.count());
}

void grpc_on_demand::running::close(std::chrono::milliseconds grace) {
  for (auto& on : listeners_) {
    boost::system::error_code ignored;
    on.acceptor.close(ignored);
    on.retry.cancel();
  }
  quiet_timer_.cancel();
  if (host_) host_->stop(grace);  // shuts every connection down
  host_.reset();
  connections_.clear();
  io_.stop();
}

void grpc_on_demand::running::stop(std::chrono::milliseconds grace) {
  if (!thread_.joinable()) return;
  asio::post(io_, [this, grace] { close(grace); });
  thread_.join();
  if (host_) host_->stop(grace);  // the thread ended early, on an exception
}

grpc_on_demand::grpc_on_demand(std::unique_ptr<running> serving) : running_(std::move(serving)) {}

grpc_on_demand::~grpc_on_demand() { stop(std::chrono::milliseconds::zero()); }

grpc_on_demand_start grpc_on_demand::start(const listen_address& address,
                                           const control_context& context,
                                           std::chrono::milliseconds quiet_period) {
  RUNWARDEN_ASSERT(quiet_period.count() > 0);
  auto serving = std::make_unique<running>(context, quiet_period);
  grpc_on_demand_start result;
  result.error = serving->listen(address, result.port);
  if (!result.error.empty()) return result;
  serving->start_thread();
  result.server.reset(new grpc_on_demand{std::move(serving)});
  return result;
}

void grpc_on_demand::stop(std::chrono::milliseconds grace) {
  if (running_) running_->stop(grace);
}

}  // namespace runwarden
