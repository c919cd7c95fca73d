// The one UTC formatter (src/util/rfc3339_time.hpp) in each of the forms its callers write:
// RFC 3339 with milliseconds (webhooks, status), whole seconds (CloudWatch's Timestamp, as
// botocore writes it) and ISO 8601's basic layout (SigV4's X-Amz-Date). A fraction is cut,
// never rounded up into the next second.
#include <catch2/catch.hpp>

#include "src/util/rfc3339_time.hpp"

using namespace runwarden;

TEST_CASE("one UTC formatter writes every form the tree needs", "[time]") {
  // 2015-08-30T12:36:00Z, AWS's SigV4 test suite's moment, and 999 ms after it.
  const auto moment = std::chrono::system_clock::time_point{std::chrono::seconds{1440938160}};
  const auto late = moment + std::chrono::milliseconds{999};
  CHECK(format_utc(late, utc_precision::milliseconds) == "2015-08-30T12:36:00.999Z");
  CHECK(format_utc(late, utc_precision::seconds) == "2015-08-30T12:36:00Z");
  CHECK(format_utc(late, utc_precision::seconds, utc_layout::basic) == "20150830T123600Z");
  CHECK(format_utc(moment, utc_precision::milliseconds, utc_layout::basic) ==
        "20150830T123600.000Z");
  CHECK(format_rfc3339_utc(moment) == "2015-08-30T12:36:00.000Z");
  CHECK(format_utc(std::chrono::system_clock::time_point{}, utc_precision::seconds) ==
        "1970-01-01T00:00:00Z");
}
