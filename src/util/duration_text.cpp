// Parses and prints Go-style durations with exact integer arithmetic. Fractions are read
// as digit strings, never as floating point, so "0.1s" is exactly 100 ms and every value
// that format_duration prints parses back to itself.

#include "src/util/duration_text.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <limits>

#include "src/util/time_bounds.hpp"

namespace runwarden {

namespace {

using rep = std::chrono::milliseconds::rep;

struct duration_unit {
  std::string_view suffix;
  rep milliseconds;
};

constexpr std::array<duration_unit, 4> duration_units{{
    {"ms", 1},
    {"s", 1'000},
    {"m", 60'000},
    {"h", 3'600'000},
}};

// A whole number of milliseconds never needs more than 7 fraction digits once trailing
// zeros are gone: 1 h is 2^7 * 3^2 * 5^5 ms, so 10^n divides f * 3'600'000 for an f not
// divisible by 10 only if n <= 7. Longer fractions are finer than a millisecond, and the
// bound keeps the fraction's integer value small enough to multiply without overflow.
constexpr std::size_t fraction_digits_max = 7;

constexpr std::string_view unit_hint = "use ms, s, m or h";

duration_parse_result failure(std::string message) { return {std::nullopt, std::move(message)}; }

std::string too_large_text(std::string_view text) {
  return fmt::format("duration \"{}\" is too large: runwarden takes at most {}", text,
                     duration_max_text);
}

bool is_digit(char character) { return character >= '0' && character <= '9'; }

std::string_view take_while(std::string_view& rest, bool want_digits) {
  std::size_t length = 0;
  while (length < rest.size() && (is_digit(rest[length]) || rest[length] == '.') == want_digits) {
    ++length;
  }
  const std::string_view taken = rest.substr(0, length);
  rest.remove_prefix(length);
  return taken;
}

const duration_unit* find_unit(std::string_view suffix) {
  for (const duration_unit& unit : duration_units) {
    if (unit.suffix == suffix) return &unit;
  }
  return nullptr;
}

// The milliseconds in `fraction` (the digits after the point) of one `unit`, if whole.
std::optional<rep> fraction_milliseconds(std::string_view fraction, const duration_unit& unit) {
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (fraction.empty()) return rep{0};
  if (fraction.size() > fraction_digits_max) return std::nullopt;
  rep digits = 0;
  rep scale = 1;
  for (const char digit : fraction) {
    digits = digits * 10 + (digit - '0');
    scale *= 10;
  }
  const rep scaled = digits * unit.milliseconds;
  if (scaled % scale != 0) return std::nullopt;
  return scaled / scale;
}

// Reads one "<number><unit>" term, such as "1.5s" from the front of "1.5s300ms".
duration_parse_result take_term(std::string_view& rest, std::string_view text) {
  const std::string_view at = rest;
  const std::string_view number = take_while(rest, true);
  const std::size_t point = number.find('.');
  const std::string_view whole = number.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view{} : number.substr(point + 1);
  if ((whole.empty() && fraction.empty()) || fraction.find('.') != std::string_view::npos) {
    if (at.size() == text.size()) {
      return failure(
          fmt::format("\"{}\" is not a duration (write a number and a unit, such "
                      "as \"10s\")",
                      text));
    }
    return failure(fmt::format("expected a number at \"{}\" in \"{}\"", at, text));
  }
  const std::string_view suffix = take_while(rest, false);
  if (suffix.empty()) return failure(fmt::format("missing unit in \"{}\" ({})", text, unit_hint));
  const duration_unit* unit = find_unit(suffix);
  if (unit == nullptr) {
    return failure(fmt::format("unknown unit \"{}\" in \"{}\" ({})", suffix, text, unit_hint));
  }
  const std::string too_large = too_large_text(text);
  rep whole_value = 0;
  if (!whole.empty()) {
    const auto [stop, error] =
        std::from_chars(whole.data(), whole.data() + whole.size(), whole_value);
    if (error != std::errc{} || stop != whole.data() + whole.size()) return failure(too_large);
  }
  if (whole_value > std::numeric_limits<rep>::max() / unit->milliseconds) {
    return failure(too_large);
  }
  const std::optional<rep> fraction_value = fraction_milliseconds(fraction, *unit);
  if (!fraction_value) {
    return failure(fmt::format("duration \"{}\" is finer than a millisecond", text));
  }
  const rep whole_milliseconds = whole_value * unit->milliseconds;
  if (*fraction_value > std::numeric_limits<rep>::max() - whole_milliseconds) {
    return failure(too_large);
  }
  return {std::chrono::milliseconds{whole_milliseconds + *fraction_value}, {}};
}

}  // namespace

duration_parse_result parse_duration(std::string_view text) {
  if (text.empty()) return failure("empty duration (write e.g. \"10s\")");
  if (text == "0") return {std::chrono::milliseconds{0}, {}};
  if (text.front() == '-') {
    return failure(fmt::format("negative duration \"{}\" (durations are zero or more)", text));
  }
  rep total = 0;
  std::string_view rest = text;
  while (!rest.empty()) {
    const duration_parse_result term = take_term(rest, text);
    if (!term.value) return term;
    if (term.value->count() > std::numeric_limits<rep>::max() - total) {
      return failure(too_large_text(text));
    }
    total += term.value->count();
  }
  if (std::chrono::milliseconds{total} > duration_max) return failure(too_large_text(text));
  return {std::chrono::milliseconds{total}, {}};
}

std::string format_duration(std::chrono::milliseconds duration) {
  // Unsigned arithmetic, so that even the most negative value has a magnitude.
  const bool negative = duration.count() < 0;
  const auto count = static_cast<std::uint64_t>(duration.count());
  const std::uint64_t magnitude = negative ? 0 - count : count;
  const std::string_view sign = negative ? "-" : "";
  if (magnitude == 0) return "0s";
  if (magnitude < 1'000) return fmt::format("{}{}ms", sign, magnitude);

  const std::uint64_t hours = magnitude / 3'600'000;
  const std::uint64_t minutes = magnitude / 60'000 % 60;
  const std::uint64_t seconds = magnitude / 1'000 % 60;
  const std::uint64_t milliseconds = magnitude % 1'000;
  std::string text{sign};
  if (hours != 0) text += fmt::format("{}h", hours);
  if (minutes != 0) text += fmt::format("{}m", minutes);
  if (seconds != 0 || milliseconds != 0) {
    std::string fraction = milliseconds == 0 ? "" : fmt::format(".{:03}", milliseconds);
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    text += fmt::format("{}{}s", seconds, fraction);
  }
  return text;
}

}  // namespace runwarden
