// See http_request_rules.hpp.
#include "src/ports/http/http_request_rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace runwarden {

bool equals_ignoring_case(std::string_view text, std::string_view upper) {
  return std::equal(text.begin(), text.end(), upper.begin(), upper.end(), [](char a, char b) {
    return std::toupper(static_cast<unsigned char>(a)) == b;
  });
}

bool sends_body(const http_request& request) {
  const auto is = [&](std::string_view name) { return equals_ignoring_case(request.method, name); };
  if (is("GET") || is("HEAD")) return false;
  return !request.body.empty() || is("POST") || is("PUT") || is("PATCH");
}

bool has_header(const http_request& request, std::string_view upper_name) {
  return std::any_of(request.headers.begin(), request.headers.end(),
                     [&](const auto& h) { return equals_ignoring_case(h.first, upper_name); });
}

bool is_idempotent(std::string_view method) {
  constexpr std::array<std::string_view, 6> idempotent{"GET",    "HEAD",    "PUT",
                                                       "DELETE", "OPTIONS", "TRACE"};
  return std::any_of(idempotent.begin(), idempotent.end(),
                     [&](std::string_view name) { return equals_ignoring_case(method, name); });
}

}  // namespace runwarden
