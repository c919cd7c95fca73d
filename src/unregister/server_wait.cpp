// See server_wait.hpp.
#include "src/unregister/server_wait.hpp"

#include <charconv>
#include <cstdint>
#include <optional>

#include "src/unregister/answer_text.hpp"

namespace runwarden {

namespace {

// Larger values are nonsense (past year 2286 as an epoch) and are ignored.
constexpr std::int64_t header_seconds_max = 9'999'999'999;

std::optional<std::int64_t> seconds_in(const std::string* header) {
  if (header == nullptr || header->empty()) return std::nullopt;
  std::int64_t seconds = 0;
  const char* end = header->data() + header->size();
  const auto [stop, error] = std::from_chars(header->data(), end, seconds);
  if (error != std::errc{} || stop != end || seconds < 0 || seconds > header_seconds_max)
    return std::nullopt;
  return seconds;
}

}  // namespace

void read_server_wait(const http_response& answer, unregister_outcome& outcome) {
  if (const auto seconds = seconds_in(find_header(answer, "retry-after")))
    outcome.retry_after = std::chrono::seconds{*seconds};
  const std::string* reset = find_header(answer, "x-ratelimit-reset");
  if (reset == nullptr) reset = find_header(answer, "ratelimit-reset");
  if (const auto epoch = seconds_in(reset))
    outcome.reset_at = std::chrono::system_clock::time_point{std::chrono::seconds{*epoch}};
}

}  // namespace runwarden
