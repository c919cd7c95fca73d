// See gmt_date.hpp. curl_getdate returns -1 for text it cannot read; a date before 1970 is
// no notice of anything to come, so it is refused as well, and so is one past what
// system_clock's 64-bit nanoseconds hold (2262): its conversion would overflow (found by the
// imds_scheduled_events fuzz target with the year 9528).
#include "src/util/gmt_date.hpp"

#include <curl/curl.h>

#include <ctime>
#include <string>

#include "src/util/time_bounds.hpp"

namespace runwarden {

std::optional<std::chrono::system_clock::time_point> parse_gmt_date(std::string_view text) {
  if (text.size() > gmt_date_length_max || !text.ends_with(" GMT")) return std::nullopt;
  const std::string terminated{text};
  const std::time_t seconds = curl_getdate(terminated.c_str(), nullptr);
  if (seconds < 0 || seconds > latest_system_second.time_since_epoch().count()) return std::nullopt;
  return std::chrono::system_clock::from_time_t(seconds);
}

std::string format_gmt_date(std::chrono::system_clock::time_point time) {
  const std::time_t whole = std::chrono::system_clock::to_time_t(time);
  std::tm calendar{};
  ::gmtime_r(&whole, &calendar);
  char text[gmt_date_length_max];
  // The C locale's names, which are RFC 1123's: runwarden never calls setlocale.
  const auto length = std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &calendar);
  return std::string(text, length);
}

}  // namespace runwarden
