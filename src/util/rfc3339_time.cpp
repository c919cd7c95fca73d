// See rfc3339_time.hpp. gmtime_r does the calendar. A time is read in whole seconds first,
// which 64 bits hold for any four-digit year, and checked against the range system_clock's
// 64-bit nanoseconds hold before it is converted (the conversion of a later year overflowed:
// found by fuzz/imds_spot_action_fuzz.cpp).
#include "src/util/rfc3339_time.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>

#include "src/util/time_bounds.hpp"

namespace runwarden {

namespace {

// The number written in text[at, at + digits), all of them digits.
std::optional<int> digits_at(std::string_view text, std::size_t at, std::size_t digits) {
  if (text.size() < at + digits) return std::nullopt;
  int value = 0;
  for (std::size_t index = at; index < at + digits; ++index) {
    if (!std::isdigit(static_cast<unsigned char>(text[index]))) return std::nullopt;
    value = value * 10 + (text[index] - '0');
  }
  return value;
}

bool separators_match(std::string_view text) {
  return text[4] == '-' && text[7] == '-' && (text[10] == 'T' || text[10] == 't') &&
         text[13] == ':' && text[16] == ':';
}

// The offset east of UTC that `zone` ("Z", "+HH:MM", "-HH:MM") names.
std::optional<std::chrono::minutes> zone_offset(std::string_view zone) {
  if (zone == "Z" || zone == "z") return std::chrono::minutes{0};
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return std::nullopt;
  const auto hours = digits_at(zone, 1, 2);
  const auto minutes = digits_at(zone, 4, 2);
  if (!hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  const std::chrono::minutes offset{*hours * 60 + *minutes};
  return zone[0] == '+' ? offset : -offset;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_rfc3339(std::string_view text) {
  constexpr std::size_t seconds_end = 19;  // "YYYY-MM-DDTHH:MM:SS"
  if (text.size() <= seconds_end || !separators_match(text)) return std::nullopt;
  const auto year = digits_at(text, 0, 4), month = digits_at(text, 5, 2),
             day = digits_at(text, 8, 2), hour = digits_at(text, 11, 2),
             minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{*year},
                                         std::chrono::month{static_cast<unsigned>(*month)},
                                         std::chrono::day{static_cast<unsigned>(*day)}};
  if (!date.ok() || *hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
  std::size_t at = seconds_end;
  std::chrono::nanoseconds fraction{0};
  if (text[at] == '.') {
    const std::size_t first_digit = ++at;
    std::int64_t scale = 100'000'000;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      fraction += std::chrono::nanoseconds{(text[at] - '0') * scale};
      scale /= 10;
      ++at;
    }
    if (at == first_digit) return std::nullopt;
  }
  const auto offset = zone_offset(text.substr(at));
  if (!offset) return std::nullopt;
  const std::chrono::sys_seconds utc = std::chrono::sys_days{date} + std::chrono::hours{*hour} +
                                       std::chrono::minutes{*minute} +
                                       std::chrono::seconds{*second} - *offset;
  if (utc < std::chrono::sys_seconds{} || utc > latest_system_second) return std::nullopt;
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(utc) + fraction;
}

std::string format_utc(std::chrono::system_clock::time_point time, utc_precision precision,
                       utc_layout layout) {
  const auto millis = std::chrono::floor<std::chrono::milliseconds>(time.time_since_epoch());
  const auto seconds = std::chrono::floor<std::chrono::seconds>(millis);
  const std::time_t whole = static_cast<std::time_t>(seconds.count());
  std::tm calendar{};
  ::gmtime_r(&whole, &calendar);
  const bool basic = layout == utc_layout::basic;
  char text[64];
  int length = std::snprintf(text, sizeof text,
                             basic ? "%04d%02d%02dT%02d%02d%02d" : "%04d-%02d-%02dT%02d:%02d:%02d",
                             calendar.tm_year + 1900, calendar.tm_mon + 1, calendar.tm_mday,
                             calendar.tm_hour, calendar.tm_min, calendar.tm_sec);
  if (precision == utc_precision::milliseconds)
    length += std::snprintf(text + length, sizeof text - static_cast<std::size_t>(length), ".%03d",
                            static_cast<int>((millis - seconds).count()));
  return std::string{text, static_cast<std::size_t>(length)} + "Z";
}

std::string format_rfc3339_utc(std::chrono::system_clock::time_point time) {
  return format_utc(time, utc_precision::milliseconds);
}

std::chrono::system_clock::time_point wall_time_of(
    instant moment, instant reference, std::chrono::system_clock::time_point reference_wall) {
  return reference_wall -
         std::chrono::duration_cast<std::chrono::system_clock::duration>(reference - moment);
}

}  // namespace runwarden
