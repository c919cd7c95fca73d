#pragma once
// What a header runwarden sends may hold, and how headers appear in logs. Names follow
// RFC 9110's token rule; values may hold any visible text but no CR, LF or NUL, which would
// end the header line early. Values of headers that usually carry a credential
// (Authorization, Cookie, anything naming a token, key, secret or password) are never
// logged: the log shows the name and "(redacted)".

#include <string>
#include <string_view>

#include "src/util/http_exchange.hpp"

namespace runwarden {

bool is_header_token(std::string_view text);
bool is_safe_header_value(std::string_view text);
// Header names compare without regard to case.
bool same_header_name(std::string_view left, std::string_view right);
bool looks_like_secret_header(std::string_view name);

// "Name: value, Name2: (redacted)" for a log line.
std::string loggable_headers(const http_header_list& headers);

}  // namespace runwarden
