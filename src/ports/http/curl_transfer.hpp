#pragma once
// One HTTP request carried out with a libcurl easy handle, blocking the calling thread for
// at most the request's timeout. Only the HTTP port's worker thread calls it. The transfer
// is locked down for talking to targets runwarden was told about by others: http and https
// only, no redirects, no proxy from the environment, names pinned to checked addresses.

#include "messages/http_messages.hpp"

namespace runwarden {

// Formats a pin as CURLOPT_RESOLVE wants it: "host:port:addr,[v6addr]".
std::string curl_resolve_entry(const resolve_pin& pin);

// Never throws; every failure becomes the response's transport_error.
http_response perform_http_request(const http_request& request);

}  // namespace runwarden
