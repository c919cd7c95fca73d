// See header_rules.hpp.
#include "src/webhook/header_rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace runwarden {

namespace {

std::string lower_case(std::string_view text) {
  std::string lower{text};
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

}  // namespace

bool is_header_token(std::string_view text) {
  constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           extra.find(c) != std::string_view::npos;
  });
}

bool is_safe_header_value(std::string_view text) {
  return text.find_first_of(std::string_view{"\r\n\0", 3}) == std::string_view::npos;
}

bool same_header_name(std::string_view left, std::string_view right) {
  return std::equal(left.begin(), left.end(), right.begin(), right.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

bool looks_like_secret_header(std::string_view name) {
  const auto lower = lower_case(name);
  constexpr std::array<std::string_view, 7> words{"authorization", "cookie",   "token",    "secret",
                                                  "key",           "password", "signature"};
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view word) { return lower.find(word) != std::string::npos; });
}

std::string loggable_headers(const http_header_list& headers) {
  std::string text;
  for (const auto& [name, value] : headers) {
    if (!text.empty()) text += ", ";
    text += name + ": " + (looks_like_secret_header(name) ? std::string{"(redacted)"} : value);
  }
  return text;
}

}  // namespace runwarden
