// See url_userinfo.hpp. The authority ends at the first "/", "?", "#" (RFC 3986 section
// 3.2), or at a character no URL holds unencoded (space, quote, angle bracket), so a URL
// inside a sentence or a JSON string is found as well. The last "@" in the authority ends
// the user information, as in curl and Go's net/url, since a password may hold an "@".
#include "src/util/url_userinfo.hpp"

namespace runwarden {

namespace {

constexpr std::string_view scheme_end = "://";
constexpr std::string_view authority_ends = "/?#\"'<> \t\r\n";

}  // namespace

std::string redact_url_userinfo(std::string_view text) {
  std::string result;
  result.reserve(text.size());
  std::size_t done = 0;
  for (auto found = text.find(scheme_end); found != std::string_view::npos;
       found = text.find(scheme_end, done)) {
    const std::size_t start = found + scheme_end.size();
    std::size_t end = text.find_first_of(authority_ends, start);
    if (end == std::string_view::npos) end = text.size();
    const auto authority = text.substr(start, end - start);
    result.append(text.substr(done, start - done));
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
      result.append(redacted_userinfo);
      result.append(authority.substr(at));
    } else {
      result.append(authority);
    }
    done = end;
  }
  result.append(text.substr(done));
  return result;
}

}  // namespace runwarden
