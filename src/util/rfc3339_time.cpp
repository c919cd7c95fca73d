// See rfc3339_time.hpp. gmtime_r does the calendar; times before 1970 cannot occur here.
#include "src/util/rfc3339_time.hpp"

#include <cstdio>
#include <ctime>

namespace runwarden {

std::string format_rfc3339_utc(std::chrono::system_clock::time_point time) {
  const auto millis = std::chrono::floor<std::chrono::milliseconds>(time.time_since_epoch());
  const auto seconds = std::chrono::floor<std::chrono::seconds>(millis);
  const std::time_t whole = static_cast<std::time_t>(seconds.count());
  std::tm calendar{};
  ::gmtime_r(&whole, &calendar);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                calendar.tm_year + 1900, calendar.tm_mon + 1, calendar.tm_mday, calendar.tm_hour,
                calendar.tm_min, calendar.tm_sec, static_cast<int>((millis - seconds).count()));
  return text;
}

std::chrono::system_clock::time_point wall_time_of(instant moment, instant reference,
                                                   std::chrono::system_clock::time_point
                                                       reference_wall) {
  return reference_wall -
         std::chrono::duration_cast<std::chrono::system_clock::duration>(reference - moment);
}

}  // namespace runwarden
