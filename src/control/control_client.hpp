#pragma once
// The client side of the control API, for `runwarden ctl`: it connects, carries the token,
// and turns every way a call can fail into a sentence and an exit code of its own, so a
// script (or a Kubernetes preStop hook) can tell "nobody listens" from "not allowed" from
// "the token was refused". For a unix socket it first tries connect() itself, because the
// kernel's answer (no such file, connection refused, permission denied) is clearer than
// what gRPC makes of it.

#include <grpcpp/client_context.h>
#include <grpcpp/support/sync_stream.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "runwarden/v1/warden.grpc.pb.h"
#include "src/util/exit_codes.hpp"

namespace runwarden {

// `runwarden ctl`'s exit codes besides 0, exit_usage (a bad flag or address) and
// exit_unavailable (no runwarden there) from exit_codes.hpp; sysexits.h where one fits.
inline constexpr int exit_ctl_refused_request = 65;  // EX_DATAERR: the request was invalid
inline constexpr int exit_ctl_no_input = 66;         // EX_NOINPUT: token or CA file unreadable
inline constexpr int exit_ctl_temporary = 75;        // EX_TEMPFAIL: timed out or cut off
inline constexpr int exit_ctl_protocol = 76;         // EX_PROTOCOL: an unexpected answer
inline constexpr int exit_ctl_permission = 77;       // EX_NOPERM: the socket's permissions
inline constexpr int exit_ctl_token_refused = 80;    // runwarden refused the token

// A unary call that takes longer than this has met a stuck runwarden.
inline constexpr std::chrono::seconds call_timeout{10};

struct client_settings {
  std::string address_text;  // unix:///PATH or tcp://HOST:PORT
  std::string token_file;    // empty: send no token
  std::string tls_ca_file;   // empty: plain connection; else TLS trusting this CA
};

struct client_failure {
  int exit_code = 0;  // 0: no failure
  std::string message;
};

struct status_result {
  std::optional<v1::StatusResponse> status;  // set exactly when the call succeeded
  client_failure failure;
};

// One open Watch call: statuses as runwarden sends them, until the stream ends. It uses its
// client's channel, so it must end before the client does.
class status_stream {
 public:
  status_stream(std::unique_ptr<grpc::ClientContext> context, const std::string& address_text,
                bool has_token, v1::Warden::Stub& stub);
  // The next status; nullopt once the stream has ended (then see end()).
  std::optional<v1::StatusResponse> next();
  // How the stream ended; exit_code 0 when runwarden ended it normally.
  client_failure end();

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReader<v1::StatusResponse>> reader_;
  std::string address_text_;
  bool has_token_;
};

class control_client {
 public:
  struct connect_result;
  // Reads the token (and CA) file and, for a unix socket, checks that something listens.
  static connect_result connect(const client_settings& settings);

  status_result status();
  status_result shutdown(const v1::ShutdownRequest& request);
  status_result force_shutdown(const v1::ForceShutdownRequest& request);
  status_result report_job(const v1::ReportJobRequest& request);
  std::unique_ptr<status_stream> watch();

 private:
  control_client(std::string address_text, std::optional<std::string> token,
                 std::unique_ptr<v1::Warden::Stub> stub);
  std::unique_ptr<grpc::ClientContext> new_context(bool with_deadline) const;
  status_result finish(const grpc::Status& status, v1::StatusResponse response) const;

  std::string address_text_;
  std::optional<std::string> token_;
  std::unique_ptr<v1::Warden::Stub> stub_;
};

struct control_client::connect_result {
  std::optional<control_client> client;  // set exactly when failure.exit_code is 0
  client_failure failure;
};

// The sentence and exit code for a call that ended with `status` (exit_code 0 for OK).
client_failure failure_of(const grpc::Status& status, const std::string& address_text,
                          bool has_token);

}  // namespace runwarden
