#pragma once
// The bearer token that guards the control API. runwarden and `runwarden ctl` read it once
// from a file (a trailing newline trimmed, an empty file refused); after that it is only
// compared, in time that does not depend on where the first difference lies. The token, or
// any part of it, never goes into a log line, an argv or an error message: errors name the
// file only.

#include <grpcpp/server_context.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

struct token_file_result {
  std::optional<std::string> token;  // set exactly when error is empty
  std::string error;
};

token_file_result read_token_file(const std::string& path);

// The metadata value a client sends: "Bearer <token>".
std::string authorization_value(std::string_view token);

// Refused calls are logged (peer only, never what was sent) at most once per this window,
// with a count of the ones left out: a flood of bad logins must not fill the disk.
inline constexpr std::chrono::seconds refused_call_log_window{10};

// Logs one refused call through the limit above.
void log_refused_call(const grpc::ServerContextBase& context);

// True when the call may proceed: no token is configured, or its `authorization` metadata
// is "Bearer <token>". A refusal is logged (log_refused_call).
bool call_authorized(const grpc::ServerContextBase& context,
                     const std::optional<std::string>& token);

// The status of every call refused for its token; it never echoes what was sent.
grpc::Status unauthenticated_status();

// Compares in time that depends on the lengths only, never on the contents.
bool equal_in_constant_time(std::string_view left, std::string_view right);

}  // namespace runwarden
