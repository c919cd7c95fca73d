#pragma once
// What a shutdown call from outside may carry, checked before anything reaches the warden:
// a request that fails a check is answered INVALID_ARGUMENT and changes nothing. Every field
// has a bound, because the reason is logged and the callback is later sent out by runwarden
// itself. A callback takes what gitlab-runner's wrapper takes (helpers/runner_wrapper/api:
// any method token, upper or lower case, sent as given; many headers) with the few refusals
// that protect the machine rather than compatibility, each named in its message: only
// http(s) URLs with a host; no link-local or instance-metadata target (unless the operator
// set webhook.allow_link_local); no line break in a header (it would let a caller write
// extra headers into the request); and sizes that fit one gRPC request.

#include <google/protobuf/duration.pb.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "src/drain/drain_vocabulary.hpp"
#include "src/drain/shutdown_request_limits.hpp"

namespace runwarden {

inline constexpr std::size_t callback_url_bytes_max = 2048;
inline constexpr std::size_t callback_method_bytes_max = 16;
inline constexpr std::size_t callback_headers_max = 256;
inline constexpr std::size_t callback_header_bytes_max = 48 * 1024;  // names and values

// The callback as the wire carries it (runwarden.v1 and gitlab-runner's wrapper spell it
// alike), headers sorted by name; nullopt when the caller left it empty.
template <class wire_callback>
std::optional<shutdown_callback> callback_from_wire(const wire_callback& wire) {
  if (wire.url().empty() && wire.method().empty() && wire.headers().empty()) return std::nullopt;
  shutdown_callback callback{wire.url(), wire.method(), {}};
  for (const auto& [name, value] : wire.headers()) callback.headers.emplace_back(name, value);
  std::sort(callback.headers.begin(), callback.headers.end());
  return callback;
}

// Says what is wrong, for the caller to read; nullopt when nothing is. Header values are
// never quoted back. The reason's rule is shutdown_request_limits.hpp's.
std::optional<std::string> callback_problem(const shutdown_callback& callback,
                                            bool allow_link_local = false);

struct deadline_check {
  std::optional<duration> relative;  // set exactly when error is empty
  std::string error;
};

// A valid protobuf Duration, then relative_deadline_problem's rule.
deadline_check deadline_from_wire(const google::protobuf::Duration& wire);

}  // namespace runwarden
