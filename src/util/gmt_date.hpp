#pragma once
// Wall-clock times written the way HTTP writes dates, which is how two clouds write their
// notices: EC2's scheduled events ("21 Jan 2019 09:00:43 GMT", the AWS user guide's "View
// scheduled events" example) and Azure's Scheduled Events (RFC 1123, "Mon, 19 Sep 2016
// 18:29:47 GMT"). libcurl's curl_getdate reads both; this only insists on the "GMT" zone
// both clouds write, so that a local time is never taken for UTC.

#include <chrono>
#include <optional>
#include <string_view>

namespace runwarden {

// Longer than any date either cloud writes; longer text is refused unread.
inline constexpr std::size_t gmt_date_length_max = 64;

std::optional<std::chrono::system_clock::time_point> parse_gmt_date(std::string_view text);

// "Mon, 19 Sep 2016 18:29:47 GMT": what the fakes and log lines write.
std::string format_gmt_date(std::chrono::system_clock::time_point time);

}  // namespace runwarden
