#pragma once
// Where and how the control server listens, decided and checked before the warden (and so
// the runner) starts: a mistake here must stop runwarden before it has a runner to stop.
// The rules: a TCP address that is not loopback needs a token, since anyone who reaches it
// could stop the runner, unless the operator opts in by name to an unauthenticated wrapper
// API (as gitlab-runner's own wrapper is; the Warden's shutdown calls stay closed unless
// opened by a second opt-in), which is logged loudly at every start; TLS takes a certificate and a
// key, on TCP only; a unix socket's directory is made ready and a stale socket removed (see
// unix_socket_file.hpp).

#include <grpcpp/security/server_credentials.h>

#include <chrono>
#include <optional>
#include <string>

#include "src/config/listen_address.hpp"
#include "src/config/settings.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

// Certificates and keys are small; a larger file is not one.
inline constexpr std::size_t tls_file_bytes_max = 1024 * 1024;

// How long gRPC stays up after the last client connection closed (grpc_on_demand.hpp).
// Restarting it costs about 1 ms of CPU and keeping it up about 0.25 ms a second, so a
// client that connects more often than this keeps it up, and one that connects less often
// pays a restart each time.
inline constexpr std::chrono::milliseconds grpc_quiet_period_default{std::chrono::seconds{10}};
// Tests and measurements shorten it through this environment variable (milliseconds,
// within the bounds below); nobody else should need to.
inline constexpr const char* grpc_quiet_period_variable = "RUNWARDEN_GRPC_QUIET_PERIOD_MS";
inline constexpr std::chrono::milliseconds grpc_quiet_period_min{100};
inline constexpr std::chrono::milliseconds grpc_quiet_period_max{std::chrono::hours{1}};

struct control_endpoint {
  listen_address address;
  std::string address_text;  // as written, for messages: "unix:///run/runwarden/control.sock"
  std::optional<std::string> token;
  std::string token_file;  // the path, which alone may be logged
  std::optional<grpc::SslServerCredentialsOptions::PemKeyCertPair> tls;
  // Off loopback without a token (control.insecure_unauthenticated_wrapper_api): the
  // Warden's Shutdown and ForceShutdown are refused unless this is set as well.
  bool warden_shutdown_open = true;
  // webhook.allow_link_local: callbacks to link-local or metadata addresses are accepted.
  bool allow_link_local_callbacks = false;
  std::chrono::milliseconds grpc_quiet_period = grpc_quiet_period_default;
};

struct control_endpoint_result {
  std::optional<control_endpoint> endpoint;  // none when disabled or failed
  std::string error;                         // set when failed
  // When failed: exit_config for wrong settings, exit_unavailable when the socket's place
  // cannot be used (exit_codes.hpp).
  int exit_code = 0;
};

// Reads settings.grpc_listen ("none" disables the server) and everything it needs, and
// grpc_quiet_period_variable from the environment.
// allow_link_local_callbacks is webhook.allow_link_local.
control_endpoint_result prepare_control_endpoint(const control_settings& settings,
                                                 bool allow_link_local_callbacks = false);

}  // namespace runwarden
