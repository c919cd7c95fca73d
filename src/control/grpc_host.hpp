#pragma once
// One started grpc::Server carrying the control API: runwarden.v1.Warden, gitlab-runner's
// ProcessWrapper, grpc.health.v1 (gRPC's default service) and server reflection. Either it
// listens on a port of its own (the always-on TLS server), or it has no port and serves the
// connections it is handed (the on-demand server, which accepts them itself). Destroying
// the last grpc object runs grpc_shutdown, which ends every thread gRPC started.

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>

#include <chrono>
#include <memory>
#include <string>

#include "src/control/process_wrapper_service.hpp"
#include "src/control/warden_bridge.hpp"
#include "src/control/warden_service.hpp"

namespace runwarden {

// Requests are small; anything larger is refused by gRPC before a handler sees it.
inline constexpr int request_bytes_max = 64 * 1024;

// How long a connection to a server that listens itself (TLS) may take to finish its
// handshake; as long as an unproven handed connection lives (grpc_on_demand.hpp).
inline constexpr std::chrono::milliseconds tls_handshake_timeout{std::chrono::seconds{5}};

// Where a server that listens itself listens.
struct grpc_listening_port {
  std::string target;  // gRPC's spelling: "unix:/run/x.sock", "127.0.0.1:7701"
  std::shared_ptr<grpc::ServerCredentials> credentials;
};

class grpc_host {
 public:
  // With `port` the server listens there, else it serves only handed connections. Null
  // when gRPC could not build the server or bind the port; `bound_port` is the port gRPC
  // bound (the TCP port, or 1 for a unix socket), when one was asked for.
  static std::unique_ptr<grpc_host> start(const control_context& context,
                                          const grpc_listening_port* port, int& bound_port);

  ~grpc_host();
  grpc_host(const grpc_host&) = delete;
  grpc_host& operator=(const grpc_host&) = delete;

  // Serves one accepted connection (non-blocking, close-on-exec), which gRPC now owns.
  // Insecure only: gRPC 1.51 cannot put TLS on a handed connection.
  void serve_connection(int fd);

  // Stops taking calls, lets open ones finish within `grace` and cancels the rest. Blocks
  // until the server is gone; calling it again does nothing.
  void stop(std::chrono::milliseconds grace);

 private:
  explicit grpc_host(const control_context& context);

  warden_service warden_service_;
  process_wrapper_service wrapper_service_;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace runwarden
