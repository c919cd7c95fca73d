#pragma once
// The IMDSv2 session token: fetched with PUT /latest/api/token, sent as
// X-aws-ec2-metadata-token on every read. It is reused until refresh_fraction of its TTL has
// passed (refreshing early, so that a read never carries a token expiring on the way), and
// dropped when the service answers 401. Times are instants passed in; the token is a secret
// and never appears in a message this file writes.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

inline constexpr std::string_view imds_token_path = "/latest/api/token";
inline constexpr std::string_view imds_token_header = "X-aws-ec2-metadata-token";
inline constexpr std::string_view imds_token_ttl_header = "X-aws-ec2-metadata-token-ttl-seconds";
// The longest TTL the service grants: six hours.
inline constexpr std::chrono::seconds imds_token_ttl_max{21600};
// Tokens are about 56 characters; anything far longer is not a token.
inline constexpr std::size_t imds_token_length_max = 1024;

struct imds_token_accepted {
  std::optional<std::string> token;  // set exactly when error is empty
  std::chrono::seconds ttl{0};
  std::string error;  // never quotes the body, which may be a token after all
};

// Checks a 200 answer to the token PUT: a printable token and, when the answer says, its TTL
// (the `ttl_header` value, lower-cased header names), which may be shorter than asked.
imds_token_accepted accept_imds_token(std::string_view body,
                                      const std::optional<std::string>& ttl_header,
                                      std::chrono::seconds asked);

class imds_token_cache {
 public:
  static constexpr double refresh_fraction = 0.8;

  // The token when one is held and its refresh point is still ahead of `now`.
  std::optional<std::string_view> usable(instant now) const;
  void store(std::string token, std::chrono::seconds ttl, instant fetched_at);
  void drop();

 private:
  std::string token_;
  instant refresh_at_{0};
};

}  // namespace runwarden
