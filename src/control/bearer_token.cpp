// See bearer_token.hpp.
#include "src/control/bearer_token.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>

#include "src/logging/logging.hpp"
#include "src/util/log_rate_limit.hpp"
#include "src/util/secret_file.hpp"

namespace runwarden {

namespace {

constexpr std::string_view authorization_key = "authorization";
constexpr std::string_view bearer_prefix = "Bearer ";

// gRPC metadata values (and HTTP header values) are printable ASCII.
bool printable(std::string_view text) {
  for (const char c : text) {
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

}  // namespace

token_file_result read_token_file(const std::string& path) {
  auto read = read_secret_file(path, "token file");
  if (!read.secret) return {std::nullopt, std::move(read.error)};
  if (!printable(*read.secret))
    return {std::nullopt, "the token file " + path +
                              " holds spaces or control characters; a token is one word of "
                              "printable ASCII"};
  return {std::move(read.secret), {}};
}

std::string authorization_value(std::string_view token) {
  return std::string{bearer_prefix} + std::string{token};
}

void log_refused_call(const grpc::ServerContextBase& context) {
  // One limit for the process: gRPC calls arrive on several threads.
  static std::mutex mutex;
  static log_rate_limit limit{refused_call_log_window};
  std::optional<std::uint64_t> left_out;
  {
    const std::lock_guard lock{mutex};
    left_out = limit.admit(log_rate_limit::clock::now());
  }
  if (!left_out) return;
  // The peer only: what the caller sent may be a mistyped real token.
  warden_logger()->warn(
      "control API: refused a call from {} without a valid bearer token{}", context.peer(),
      *left_out == 0
          ? std::string{}
          : fmt::format(" ({} more refused since the last such line, not logged)", *left_out));
}

bool call_authorized(const grpc::ServerContextBase& context,
                     const std::optional<std::string>& token) {
  if (!token) return true;
  const auto& metadata = context.client_metadata();
  const auto [first, last] =
      metadata.equal_range(grpc::string_ref{authorization_key.data(), authorization_key.size()});
  bool authorized = false;
  for (auto entry = first; entry != last; ++entry) {
    const std::string_view value{entry->second.data(), entry->second.size()};
    if (value.starts_with(bearer_prefix) &&
        equal_in_constant_time(value.substr(bearer_prefix.size()), *token))
      authorized = true;
  }
  if (!authorized) log_refused_call(context);
  return authorized;
}

grpc::Status unauthenticated_status() {
  return {grpc::StatusCode::UNAUTHENTICATED,
          "missing or wrong token: send the metadata \"authorization: Bearer <token>\""};
}

bool equal_in_constant_time(std::string_view left, std::string_view right) {
  // Every byte of the longer side is visited, and differences are OR-ed, not returned early.
  const std::size_t length = std::max(left.size(), right.size());
  unsigned difference = left.size() == right.size() ? 0U : 1U;
  for (std::size_t index = 0; index < length; ++index) {
    const auto l = index < left.size() ? static_cast<unsigned char>(left[index]) : 0U;
    const auto r = index < right.size() ? static_cast<unsigned char>(right[index]) : 0U;
    difference |= l ^ r;
  }
  return difference == 0;
}

}  // namespace runwarden
