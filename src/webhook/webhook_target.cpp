// See webhook_target.hpp. libcurl's URL handle and the strings it returns are freed by
// unique_ptrs; CURLU_NON_SUPPORT_SCHEME lets unknown schemes parse so that the error can
// say "only http and https" instead of libcurl's generic one.
#include "src/webhook/webhook_target.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>

#include <charconv>
#include <memory>

namespace runwarden {

namespace {

struct url_deleter {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
struct text_deleter {
  void operator()(char* text) const { curl_free(text); }
};
using url_handle = std::unique_ptr<CURLU, url_deleter>;

// One part of the URL, or nullopt when the URL has none.
std::optional<std::string> part_of(CURLU* url, CURLUPart part, unsigned flags = 0) {
  char* raw = nullptr;
  if (curl_url_get(url, part, &raw, flags) != CURLUE_OK || raw == nullptr) return std::nullopt;
  const std::unique_ptr<char, text_deleter> owned{raw};
  return std::string{raw};
}

bool is_numeric_address(const std::string& host) {
  unsigned char buffer[sizeof(in6_addr)];
  return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

std::string without_brackets(std::string host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    return host.substr(1, host.size() - 2);
  return host;
}

std::optional<std::uint16_t> port_of(CURLU* url) {
  const auto text = part_of(url, CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (!text) return std::nullopt;
  std::uint16_t port = 0;
  const auto [end, failure] = std::from_chars(text->data(), text->data() + text->size(), port);
  if (failure != std::errc{} || end != text->data() + text->size()) return std::nullopt;
  return port;
}

target_parse_result refused(std::string error) { return {std::nullopt, std::move(error)}; }

}  // namespace

std::string webhook_target::label() const {
  const bool ipv6 = host.find(':') != std::string::npos;
  return scheme + "://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

target_parse_result parse_webhook_target(std::string_view text) {
  if (text.empty()) return refused("the URL is empty");
  const url_handle url{curl_url()};
  if (!url) return refused("out of memory parsing the URL");
  const std::string owned{text};
  if (const auto code =
          curl_url_set(url.get(), CURLUPART_URL, owned.c_str(), CURLU_NON_SUPPORT_SCHEME);
      code != CURLUE_OK)
    return refused(std::string{"the URL cannot be parsed: "} + curl_url_strerror(code));
  webhook_target target;
  target.url = owned;
  target.scheme = part_of(url.get(), CURLUPART_SCHEME).value_or("");
  const auto host = part_of(url.get(), CURLUPART_HOST);
  const auto where = target.scheme + "://" + host.value_or("");
  if (target.scheme != "http" && target.scheme != "https")
    return refused("scheme \"" + target.scheme + "\" is not allowed (" + where +
                   "): only http and https");
  if (!host || host->empty()) return refused("the URL has no host (" + where + ")");
  if (part_of(url.get(), CURLUPART_USER) || part_of(url.get(), CURLUPART_PASSWORD))
    return refused("user information in the URL is not allowed (" + where + ")");
  const auto port = port_of(url.get());
  if (!port || *port == 0) return refused("the URL has no usable port (" + where + ")");
  target.host = without_brackets(*host);
  target.port = *port;
  target.host_is_address = is_numeric_address(target.host);
  target.path_and_query = part_of(url.get(), CURLUPART_PATH).value_or("/");
  if (const auto query = part_of(url.get(), CURLUPART_QUERY)) target.path_and_query += "?" + *query;
  return {std::move(target), {}};
}

}  // namespace runwarden
