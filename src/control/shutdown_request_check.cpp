// See shutdown_request_check.hpp. The URL check is deliberately narrow: it accepts what an
// HTTP client can send without guessing (scheme, host, optional port, then anything
// printable) and refuses the rest; what the URL points at is the notifier's concern.
#include "src/control/shutdown_request_check.hpp"

#include <cctype>
#include <charconv>

#include "src/webhook/address_policy.hpp"
#include "src/webhook/webhook_target.hpp"

namespace runwarden {

namespace {

constexpr std::chrono::nanoseconds::rep nanoseconds_per_second = 1'000'000'000;

bool printable_without_space(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

// RFC 9110's token characters, which header names are made of.
bool is_token(std::string_view text) {
  constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string_view::npos;
  });
}

bool is_host_name(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  });
}

bool is_port(std::string_view text) {
  unsigned port = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  return !text.empty() && error == std::errc{} && end == text.data() + text.size() && port >= 1 &&
         port <= 65535;
}

std::optional<std::string> authority_problem(std::string_view authority) {
  if (const auto at = authority.rfind('@'); at != std::string_view::npos)
    authority.remove_prefix(at + 1);
  std::string_view host = authority;
  std::string_view port;
  bool has_port = false;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos || close == 1) return "has a malformed IPv6 host";
    host = authority.substr(1, close - 1);
    has_port = authority.size() > close + 1;
    if (has_port && authority[close + 1] != ':') return "has a malformed IPv6 host";
    port = authority.substr(std::min(close + 2, authority.size()));
    if (host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos)
      return "has a malformed IPv6 host";
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    has_port = true;
    if (!is_host_name(host)) return "has no valid host";
  } else if (!is_host_name(host)) {
    return "has no valid host";
  }
  if (has_port && !is_port(port)) return "has a port that is not a number from 1 to 65535";
  return std::nullopt;
}

std::optional<std::string> url_problem(std::string_view url) {
  if (url.empty()) return "a callback needs a url";
  if (url.size() > callback_url_bytes_max)
    return "callback url is longer than " + std::to_string(callback_url_bytes_max) + " bytes";
  if (!printable_without_space(url))
    return "callback url holds spaces or control characters (percent-encode them)";
  const auto scheme_end = url.find("://");
  std::string scheme{url.substr(0, std::min(scheme_end, url.size()))};
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme_end == std::string_view::npos || (scheme != "http" && scheme != "https"))
    return "callback url must start with http:// or https:// (rule: runwarden sends callbacks "
           "over HTTP only)";
  const auto rest = url.substr(scheme_end + 3);
  const auto authority = rest.substr(0, rest.find_first_of("/?#"));
  if (auto problem = authority_problem(authority)) return "callback url " + *problem;
  return std::nullopt;
}

std::optional<std::string> headers_problem(const shutdown_callback& callback) {
  if (callback.headers.size() > callback_headers_max)
    return "a callback takes at most " + std::to_string(callback_headers_max) + " headers";
  std::size_t bytes = 0;
  for (const auto& [name, value] : callback.headers) {
    if (!is_token(name)) return "callback header name \"" + name + "\" is not a valid name";
    const bool clean = std::all_of(value.begin(), value.end(),
                                   [](char c) { return c == '\t' || (c >= 0x20 && c != 0x7f); });
    if (!clean) return "callback header " + name + " has a line break or control character";
    bytes += name.size() + value.size();
  }
  if (bytes > callback_header_bytes_max)
    return "callback headers hold more than " + std::to_string(callback_header_bytes_max) +
           " bytes";
  return std::nullopt;
}

std::optional<std::string> target_problem(std::string_view url) {
  const auto parsed = parse_webhook_target(url);
  if (!parsed.target) return std::nullopt;  // the notifier refuses it by its own words
  const auto& target = *parsed.target;
  const bool refused =
      target.host_is_address ? is_refused_address(target.host) : is_metadata_host_name(target.host);
  if (!refused) return std::nullopt;
  return "callback url " + target.label() +
         " is a link-local or instance-metadata target "
         "(rule: runwarden never lets an API caller aim it at the metadata service; the "
         "operator may allow it with webhook.allow_link_local)";
}

}  // namespace

std::optional<std::string> callback_problem(const shutdown_callback& callback,
                                            bool allow_link_local) {
  if (auto problem = url_problem(callback.url)) return problem;
  if (!allow_link_local) {
    if (auto problem = target_problem(callback.url)) return problem;
  }
  // Go's http.NewRequest takes any token as a method and sends it as given.
  if (!callback.method.empty() &&
      (callback.method.size() > callback_method_bytes_max || !is_token(callback.method)))
    return "callback method must be an HTTP method token of at most " +
           std::to_string(callback_method_bytes_max) + " characters, such as GET or POST";
  return headers_problem(callback);
}

deadline_check deadline_from_wire(const google::protobuf::Duration& wire) {
  const auto seconds = wire.seconds();
  const auto nanos = wire.nanos();
  if (nanos <= -nanoseconds_per_second || nanos >= nanoseconds_per_second ||
      (seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0))
    return {std::nullopt, "deadline is not a valid duration"};
  // Whole seconds first: most counts of seconds the wire allows overflow nanoseconds.
  if (auto problem = relative_deadline_problem(std::chrono::seconds{seconds}))
    return {std::nullopt, *problem};
  const duration relative{seconds * nanoseconds_per_second + nanos};
  if (auto problem = relative_deadline_problem(relative)) return {std::nullopt, *problem};
  return {relative, {}};
}

}  // namespace runwarden
