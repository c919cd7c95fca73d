// See seed_arguments.hpp.
#include "src/app/seed_arguments.hpp"

#include <charconv>

namespace runwarden {

std::optional<std::uint64_t> parse_seed(std::string_view text) {
  std::uint64_t seed = 0;
  const auto* end = text.data() + text.size();
  const auto parsed = std::from_chars(text.data(), end, seed);
  if (text.empty() || parsed.ec != std::errc{} || parsed.ptr != end) return std::nullopt;
  return seed;
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_seed_range(std::string_view text) {
  const auto dots = text.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  const auto first = parse_seed(text.substr(0, dots));
  const auto last = parse_seed(text.substr(dots + 2));
  if (!first || !last || *last < *first) return std::nullopt;
  return std::pair{*first, *last};
}

}  // namespace runwarden
