#pragma once
// Where a webhook or a shutdown callback may go, checked before anything is sent. The URL is
// parsed with libcurl's own URL parser, the one the transfer uses, so that the checks and
// the request can never read the same text differently. Only http and https, a host, and no
// user information; the addresses behind the host are checked later (address_policy).
//
// Errors and logs name only the scheme and host: the path or query may carry a token.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

struct webhook_target {
  std::string url;               // as given; this is what is requested
  std::string scheme;            // "http" or "https"
  std::string host;              // without IPv6 brackets; numeric forms normalised by libcurl
  std::uint16_t port = 0;        // explicit, or the scheme's default
  bool host_is_address = false;  // a numeric IPv4 or IPv6 host: nothing to look up
  std::string path_and_query;    // what an HTTP request line names: "/" at least, no fragment

  // "scheme://host:port", safe for logs.
  std::string label() const;
};

struct target_parse_result {
  std::optional<webhook_target> target;  // set exactly when error is empty
  std::string error;
};

target_parse_result parse_webhook_target(std::string_view url);

}  // namespace runwarden
