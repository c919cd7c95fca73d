#pragma once
// The seeds `runwarden sim` takes on its command line: whole numbers from 0 to 2^64 - 1, one
// (--seed N) or a range (--seeds A..B with A <= B). Read here rather than by CLI11, whose
// unsigned options take "-1" as 18446744073709551615 and an out-of-range number as the
// largest one, so the run would not be the seed asked for.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace runwarden {

inline constexpr const char* seed_rule_text = "whole numbers from 0 to 18446744073709551615";

std::optional<std::uint64_t> parse_seed(std::string_view text);
std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_seed_range(std::string_view text);

}  // namespace runwarden
