#pragma once
// AWS Signature Version 4 for one request, header form: canonical request, string to sign,
// signing key, Authorization. Pure: the time comes in, nothing is read from a clock. The
// signer owns three headers and computes them itself: X-Amz-Date, X-Amz-Security-Token (only
// with a session token, and then signed, as botocore does) and Authorization; copies of them
// in the request are left out of the signature and must be left off the wire.
//
// What the signature covers, and what a caller sends, must agree: send exactly the request's
// headers (without the three) plus headers_to_add, the path as given, and
// canonical_query_string(query) as the query.

#include <chrono>
#include <string>
#include <string_view>

#include "src/aws/aws_credentials.hpp"
#include "src/aws/canonical_headers.hpp"
#include "src/aws/canonical_query.hpp"

namespace runwarden {

inline constexpr std::string_view sigv4_algorithm = "AWS4-HMAC-SHA256";
inline constexpr std::string_view unsigned_payload_hash = "UNSIGNED-PAYLOAD";

struct sigv4_scope {
  std::string region;   // "us-east-1"
  std::string service;  // "autoscaling"
};

struct sigv4_request {
  std::string method;          // "POST"
  std::string path;            // as on the request line, "/" for the Query APIs
  query_parameter_list query;  // decoded names and values
  header_list headers;         // Host included
  std::string payload_hash;    // sha256_hex(body), or unsigned_payload_hash
};

struct sigv4_signature {
  // X-Amz-Date, then X-Amz-Security-Token when there is a session token, then Authorization.
  // The token is a secret: never log these headers.
  header_list headers_to_add;
  std::string canonical_request;  // holds the session token as well
  std::string string_to_sign;
  std::string authorization;  // the Authorization header's value
};

// "20150830T123600Z": the request time in UTC, whole seconds.
std::string amz_date(std::chrono::system_clock::time_point time);

// The raw derived key: HMAC chain over "AWS4" + secret, date (YYYYMMDD), region, service,
// "aws4_request".
std::string sigv4_signing_key(const secret_text& secret_access_key, std::string_view date,
                              const sigv4_scope& scope);

sigv4_signature sign_sigv4(const sigv4_request& request, const aws_credentials& credentials,
                           const sigv4_scope& scope, std::chrono::system_clock::time_point time);

}  // namespace runwarden
