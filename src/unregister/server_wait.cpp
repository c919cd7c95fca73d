// See server_wait.hpp.
#include "src/unregister/server_wait.hpp"

#include <charconv>
#include <cstdint>
#include <optional>

#include "src/unregister/answer_text.hpp"
#include "src/util/time_bounds.hpp"

namespace runwarden {

namespace {

// A plain number of seconds from 0 to `max`; a larger one is nonsense (its conversion to the
// nanoseconds every wait counts in would overflow), so it is ignored like any other.
std::optional<std::int64_t> seconds_in(const std::string* header, std::int64_t max) {
  if (header == nullptr || header->empty()) return std::nullopt;
  std::int64_t seconds = 0;
  const char* end = header->data() + header->size();
  const auto [stop, error] = std::from_chars(header->data(), end, seconds);
  if (error != std::errc{} || stop != end || seconds < 0 || seconds > max) return std::nullopt;
  return seconds;
}

}  // namespace

void read_server_wait(const http_response& answer, unregister_outcome& outcome) {
  if (const auto seconds =
          seconds_in(find_header(answer, "retry-after"), duration_max_seconds.count()))
    outcome.retry_after = std::chrono::seconds{*seconds};
  const std::string* reset = find_header(answer, "x-ratelimit-reset");
  if (reset == nullptr) reset = find_header(answer, "ratelimit-reset");
  if (const auto epoch = seconds_in(reset, latest_system_second.time_since_epoch().count()))
    outcome.reset_at = std::chrono::system_clock::time_point{std::chrono::seconds{*epoch}};
}

}  // namespace runwarden
