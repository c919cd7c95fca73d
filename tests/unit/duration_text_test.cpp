// Durations are checked against a table of texts with their exact values in milliseconds,
// a table of rejected texts with the words each error must contain, and a round trip:
// whatever format_duration prints, parse_duration must read back to the same value.

#include "src/util/duration_text.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <string>

namespace {

using std::chrono::milliseconds;

struct good_duration {
  std::string text;
  std::int64_t milliseconds;
};

struct bad_duration {
  std::string text;
  std::string error_part;
};

}  // namespace

TEST_CASE("parse_duration reads Go-style durations exactly", "[duration]") {
  const auto row = GENERATE(values<good_duration>({
      {"0", 0},
      {"0s", 0},
      {"0ms", 0},
      {"300ms", 300},
      {"1.5s", 1'500},
      {"10s", 10'000},
      {"5m", 300'000},
      {"2h", 7'200'000},
      {"1h30m", 5'400'000},
      {"1h30m15s250ms", 5'415'250},
      {"0.1s", 100},
      {".5s", 500},
      {"5.s", 5'000},
      {"1.50000000000s", 1'500},
      {"0.0005h", 1'800},
      {"0.0000025h", 9},
      {"1.001s", 1'001},
      {"90m", 5'400'000},
      {"1s1s", 2'000},
      {"007s", 7'000},
      {"87600h", 315'360'000'000},  // duration_max, the longest runwarden takes
      {"315359999999ms1ms", 315'360'000'000},
  }));
  CAPTURE(row.text);
  const auto parsed = runwarden::parse_duration(row.text);
  INFO(parsed.error);
  REQUIRE(parsed.value.has_value());
  CHECK(parsed.error.empty());
  CHECK(parsed.value->count() == row.milliseconds);
}

TEST_CASE("parse_duration explains what is wrong", "[duration]") {
  const auto row = GENERATE(values<bad_duration>({
      {"", "empty duration"},
      {"10", "missing unit in \"10\""},
      {"1h30", "missing unit in \"1h30\""},
      {"5x", "unknown unit \"x\" in \"5x\""},
      {"5ns", "unknown unit \"ns\""},
      {"5us", "unknown unit \"us\""},
      {"5 s", "unknown unit \" s\""},
      {"5S", "unknown unit \"S\""},
      {"-5s", "negative duration \"-5s\""},
      {"+5s", "\"+5s\" is not a duration"},
      {"s", "\"s\" is not a duration (write a number and a unit"},
      {".s", "\".s\" is not a duration"},
      {"5s.s", "expected a number at \".s\" in \"5s.s\""},
      {"1.2.3s", "\"1.2.3s\" is not a duration"},
      {"1s1.2.3s", "expected a number at \"1.2.3s\" in \"1s1.2.3s\""},
      {"1.5ms", "finer than a millisecond"},
      {"0.00000001h", "finer than a millisecond"},
      {"1.0005s", "finer than a millisecond"},
      {"9223372036854775808ms", "too large"},
      {"9223372036854776s", "too large"},
      {"99999999999999999999999h", "too large"},
      {"9223372036854775807ms1ms", "too large"},
      // Past duration_max, though milliseconds would hold it: in nanoseconds, which every
      // deadline counts in, 2562048h overflows (it crashed runwarden run --drain-timeout).
      {"87600h1ms", "too large: runwarden takes at most 87600h (ten years)"},
      {"2562048h", "too large"},
      {"9223372036854775807ms", "too large"},
      {"none", "\"none\" is not a duration"},
  }));
  CAPTURE(row.text);
  const auto parsed = runwarden::parse_duration(row.text);
  CHECK_FALSE(parsed.value.has_value());
  CHECK_THAT(parsed.error, Catch::Matchers::Contains(row.error_part));
}

TEST_CASE("format_duration prints the shortest readable form", "[duration]") {
  CHECK(runwarden::format_duration(milliseconds{0}) == "0s");
  CHECK(runwarden::format_duration(milliseconds{250}) == "250ms");
  CHECK(runwarden::format_duration(milliseconds{999}) == "999ms");
  CHECK(runwarden::format_duration(milliseconds{1'000}) == "1s");
  CHECK(runwarden::format_duration(milliseconds{1'500}) == "1.5s");
  CHECK(runwarden::format_duration(milliseconds{1'001}) == "1.001s");
  CHECK(runwarden::format_duration(milliseconds{1'020}) == "1.02s");
  CHECK(runwarden::format_duration(milliseconds{60'000}) == "1m");
  CHECK(runwarden::format_duration(milliseconds{90'000}) == "1m30s");
  CHECK(runwarden::format_duration(milliseconds{3'600'000}) == "1h");
  CHECK(runwarden::format_duration(milliseconds{5'400'000}) == "1h30m");
  CHECK(runwarden::format_duration(milliseconds{3'600'500}) == "1h0.5s");
  CHECK(runwarden::format_duration(milliseconds{90'000'000}) == "25h");
  CHECK(runwarden::format_duration(milliseconds{-1'500}) == "-1.5s");
  CHECK(runwarden::format_duration(milliseconds::min()) == "-2562047788015h12m55.808s");
}

TEST_CASE("format_duration output parses back to the same value", "[duration]") {
  const auto count = GENERATE(as<std::int64_t>{}, 0, 1, 999, 1'000, 1'001, 59'999, 60'000, 61'001,
                              3'599'999, 3'600'000, 5'400'000, 86'399'999, 315'360'000'000);
  const std::string text = runwarden::format_duration(milliseconds{count});
  CAPTURE(count, text);
  const auto parsed = runwarden::parse_duration(text);
  REQUIRE(parsed.value.has_value());
  CHECK(parsed.value->count() == count);
}
