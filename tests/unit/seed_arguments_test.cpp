// `runwarden sim`'s seeds as the command line gives them: every uint64 and nothing else, so
// that a run is always the seed asked for (CLI11's own unsigned reading turned "-1" into
// 18446744073709551615).

#include "src/app/seed_arguments.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

using runwarden::parse_seed;
using runwarden::parse_seed_range;

TEST_CASE("a seed is a whole number from 0 to 2^64 - 1", "[sim][input]") {
  constexpr auto largest = std::numeric_limits<std::uint64_t>::max();
  CHECK(parse_seed("0") == 0u);
  CHECK(parse_seed("5001046") == 5001046u);
  CHECK(parse_seed("18446744073709551615") == largest);
  for (const std::string bad :
       {"", "-1", "+1", "18446744073709551616", "1e3", "0x10", " 1", "1 ", "one"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_seed(bad));
  }
}

TEST_CASE("a seed range is A..B with A <= B, up to the largest seed", "[sim][input]") {
  constexpr auto largest = std::numeric_limits<std::uint64_t>::max();
  CHECK(parse_seed_range("1..600") == std::pair<std::uint64_t, std::uint64_t>{1, 600});
  CHECK(parse_seed_range("7..7") == std::pair<std::uint64_t, std::uint64_t>{7, 7});
  CHECK(parse_seed_range("18446744073709551615..18446744073709551615") ==
        std::pair{largest, largest});
  for (const std::string bad :
       {"5..1", "..5", "5..", "1...5", "1..18446744073709551616", "-1..5", "1-5", "1..2..3"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_seed_range(bad));
  }
}
