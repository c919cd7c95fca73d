#pragma once
// The pieces of an HTTP answer that reports may quote, made safe: the token cut out wherever
// it appears (a server may echo it back), then a short excerpt with control characters and
// non-ASCII bytes replaced, so an HTML error page or a truncated JSON body becomes one
// readable line and never breaks a log line or a terminal.
#include <cstddef>
#include <string>
#include <string_view>

#include "src/util/http_exchange.hpp"

namespace runwarden {

inline constexpr std::size_t answer_excerpt_bytes_max = 120;
inline constexpr std::string_view redacted_text = "[redacted]";

// `text` without any occurrence of `secret` (an empty secret removes nothing).
std::string redact(std::string_view text, std::string_view secret);

// `body`, redacted, on one line of printable ASCII, cut at answer_excerpt_bytes_max.
std::string answer_excerpt(std::string_view body, std::string_view secret);

// "HTTP 500: <excerpt>", or "HTTP 500 (empty body)"; "no answer: <transport error>".
std::string describe_answer(const http_response& answer, std::string_view secret);

// The value of header `name` (lower case, as the HTTP port gives them), or nullptr.
const std::string* find_header(const http_response& answer, std::string_view name);

}  // namespace runwarden
