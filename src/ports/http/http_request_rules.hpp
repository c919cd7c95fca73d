#pragma once
// What both HTTP clients (libcurl's and the Beast one on the io thread) decide the same way
// about a request, so that a request goes out alike whichever carries it.

#include <string_view>

#include "src/util/http_exchange.hpp"

namespace runwarden {

// Compares ASCII text without regard to case; `upper` is written in capitals.
bool equals_ignoring_case(std::string_view text, std::string_view upper);

// POST, PUT and PATCH always carry a body (an empty one as Content-Length: 0, as Go's client
// sends it); GET and HEAD never; any other method only when there is one.
bool sends_body(const http_request& request);

// Whether the request carries a header of this name; `upper_name` is written in capitals.
bool has_header(const http_request& request, std::string_view upper_name);

// GET, HEAD, PUT, DELETE, OPTIONS and TRACE (RFC 9110, 9.2.2): sending one twice has the
// effect of sending it once, which is what allows a retry on a connection found closed.
bool is_idempotent(std::string_view method);

}  // namespace runwarden
