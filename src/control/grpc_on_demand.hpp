#pragma once
// The control API's gRPC server, started on demand. gRPC 1.51 starts threads that wake
// every second for as long as any grpc object lives (bench/README.md, "Where the misses come
// from"), so runwarden listens on the control address itself, on a thread of its own that
// sleeps in epoll while nobody connects. The first connection starts a gRPC server without
// ports (grpc_host) and hands it the connection, and so does every further one. Once no
// connection has been open for the quiet period, the server is shut down and destroyed,
// and gRPC's threads end with it.
//
// Open connections, not calls, keep gRPC up: a client that reads its socket only during a
// call (Python's grpcio) would meet a closed connection, or a GOAWAY sent while it was not
// reading, only as its next call starts, and that call would fail (UNAVAILABLE "Broken pipe"
// or CANCELLED; tried). A Watch stream, like every call, holds its connection open. To see
// a connection end, the acceptor keeps a duplicate of each descriptor it handed to gRPC and
// waits for its hang-up: gRPC shuts a socket down (both ways) before it closes it (on TCP
// that is the only hang-up; python_grpc_on_demand sees it), and a unix socket hangs up as
// soon as its peer closes.
//
// A connection proves itself with a call that passes the token check (proven_connections
// .hpp). One that has not within unproven_connection_timeout is closed, and at the
// connection limit the oldest unproven one (accepted unproven_connection_eviction_age ago at
// least) is closed for a newcomer, so idle connections that authenticate nothing cannot
// lock a token holder out. Proven connections are never closed here: holding a
// slot with one takes the token.
//
// TLS cannot ride a handed connection in gRPC 1.51, so TLS endpoints stay on an always-on
// server (control_server.hpp).

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "src/config/listen_address.hpp"
#include "src/control/warden_bridge.hpp"

namespace runwarden {

// Long enough for a client to make its first call after connecting, even a slow one.
inline constexpr std::chrono::seconds unproven_connection_timeout{5};
// A younger unproven connection may have its first call on the way, so it is not evicted.
inline constexpr std::chrono::seconds unproven_connection_eviction_age{1};

struct grpc_on_demand_start;

class grpc_on_demand {
 public:
  // Binds and listens on `address` (a unix socket whose path prepare_socket_path made ready,
  // or every address a TCP host resolves to) and starts the acceptor's thread. `context`
  // must outlive the server.
  static grpc_on_demand_start start(const listen_address& address, const control_context& context,
                                    std::chrono::milliseconds quiet_period);

  ~grpc_on_demand();
  grpc_on_demand(const grpc_on_demand&) = delete;
  grpc_on_demand& operator=(const grpc_on_demand&) = delete;

  // Stops listening, lets open calls finish within `grace` and cancels the rest, and joins
  // the thread. Blocks until done; calling it again does nothing.
  void stop(std::chrono::milliseconds grace);

 private:
  class running;
  explicit grpc_on_demand(std::unique_ptr<running> serving);

  std::unique_ptr<running> running_;
};

struct grpc_on_demand_start {
  std::unique_ptr<grpc_on_demand> server;  // set exactly when error is empty
  std::string error;
  std::uint16_t port = 0;  // the TCP port listened on (port 0 asks for a free one)
};

}  // namespace runwarden
