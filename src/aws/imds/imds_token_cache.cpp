// See imds_token_cache.hpp.
#include "src/aws/imds/imds_token_cache.hpp"

#include <algorithm>
#include <charconv>

#include "src/util/assert.hpp"

namespace runwarden {

imds_token_accepted accept_imds_token(std::string_view body,
                                      const std::optional<std::string>& ttl_header,
                                      std::chrono::seconds asked) {
  RUNWARDEN_ASSERT(asked.count() > 0);
  if (body.empty()) return {std::nullopt, {}, "the token answer is empty"};
  if (body.size() > imds_token_length_max)
    return {std::nullopt, {}, "the token answer is longer than a token can be"};
  // Visible ASCII only: the token goes into a header, where a line break would split it.
  const bool printable = std::all_of(
      body.begin(), body.end(), [](char character) { return character > ' ' && character < 0x7f; });
  if (!printable) return {std::nullopt, {}, "the token answer holds characters a token cannot"};
  std::chrono::seconds ttl = asked;
  if (ttl_header) {
    long long seconds = 0;
    const auto* end = ttl_header->data() + ttl_header->size();
    const auto parsed = std::from_chars(ttl_header->data(), end, seconds);
    if (parsed.ec != std::errc{} || parsed.ptr != end || seconds <= 0)
      return {std::nullopt, {}, "the token's TTL header is not a positive number of seconds"};
    ttl = std::min(asked, std::chrono::seconds{seconds});
  }
  return {std::string{body}, ttl, {}};
}

std::optional<std::string_view> imds_token_cache::usable(instant now) const {
  if (token_.empty() || now >= refresh_at_) return std::nullopt;
  return std::string_view{token_};
}

void imds_token_cache::store(std::string token, std::chrono::seconds ttl, instant fetched_at) {
  RUNWARDEN_ASSERT(!token.empty());
  RUNWARDEN_ASSERT(ttl.count() > 0);
  token_ = std::move(token);
  const auto lifetime = std::chrono::duration_cast<instant>(ttl);
  refresh_at_ = fetched_at + std::chrono::duration_cast<instant>(lifetime * refresh_fraction);
}

void imds_token_cache::drop() { token_.clear(); }

}  // namespace runwarden
