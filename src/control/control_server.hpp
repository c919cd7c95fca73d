#pragma once
// The control server: the gRPC control API on one address, carrying runwarden.v1.Warden,
// gitlab-runner's ProcessWrapper, grpc.health.v1 (left open to everyone: Kubernetes' gRPC
// probes cannot send a token, and it tells only SERVING or not) and server reflection.
// Its handlers answer from the warden through one-shot actors, so gRPC's threads never wait.
// On a unix socket or plain TCP, gRPC runs only while clients use it (grpc_on_demand.hpp);
// with TLS it runs from start to exit (grpc_host.hpp).
// Stopping gives open calls (Watch streams waiting for their final `gone`) a short grace,
// then cancels what is left and removes the socket file this server created.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "src/control/control_endpoint.hpp"
#include "src/control/grpc_host.hpp"
#include "src/control/grpc_on_demand.hpp"
#include "src/control/unix_socket_file.hpp"
#include "src/control/warden_bridge.hpp"

namespace runwarden {

class control_server;

struct control_server_start {
  std::unique_ptr<control_server> server;  // set exactly when error is empty
  std::string error;
  int exit_code = 0;
};

class control_server {
 public:
  static control_server_start start(control_endpoint endpoint, caf::actor_system& system,
                                    warden_actor warden);

  ~control_server();
  control_server(const control_server&) = delete;
  control_server& operator=(const control_server&) = delete;

  // Waits (up to `grace`) for Watch streams to end and their clients to read the end, then
  // stops taking calls, lets open ones finish within `grace`, cancels the rest, and removes
  // the socket file. Blocks until done; calling it again does nothing.
  void stop(std::chrono::milliseconds grace);

 private:
  control_server(control_endpoint endpoint, caf::actor_system& system, warden_actor warden);
  std::string listen();

  control_endpoint endpoint_;
  control_context context_;
  std::unique_ptr<grpc_host> always_on_;       // TLS endpoints
  std::unique_ptr<grpc_on_demand> on_demand_;  // the others
  std::optional<socket_file_identity> socket_file_;
};

}  // namespace runwarden
