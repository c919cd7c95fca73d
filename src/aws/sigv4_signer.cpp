// See sigv4_signer.hpp. The steps and their names follow the SigV4 documentation, so each
// intermediate string can be compared with the AWS test suite's .creq and .sts files.
#include "src/aws/sigv4_signer.hpp"

#include <cctype>

#include "src/aws/canonical_uri.hpp"
#include "src/util/assert.hpp"
#include "src/util/rfc3339_time.hpp"
#include "src/util/sha256_digest.hpp"

namespace runwarden {

namespace {

constexpr std::string_view date_header = "X-Amz-Date";
constexpr std::string_view token_header = "X-Amz-Security-Token";
constexpr std::string_view authorization_header = "Authorization";

bool same_name(std::string_view left, std::string_view right) {
  if (left.size() != right.size()) return false;
  for (std::size_t index = 0; index < left.size(); ++index) {
    const auto a = static_cast<unsigned char>(left[index]);
    const auto b = static_cast<unsigned char>(right[index]);
    if (std::tolower(a) != std::tolower(b)) return false;
  }
  return true;
}

bool owned_by_signer(std::string_view name) {
  return same_name(name, date_header) || same_name(name, token_header) ||
         same_name(name, authorization_header);
}

// The request's headers with the signer's own replaced by freshly computed ones.
header_list headers_to_sign(const sigv4_request& request, const std::string& timestamp,
                            const aws_credentials& credentials) {
  header_list headers;
  headers.reserve(request.headers.size() + 2);
  for (const auto& header : request.headers)
    if (!owned_by_signer(header.first)) headers.push_back(header);
  headers.emplace_back(date_header, timestamp);
  if (credentials.session_token)
    headers.emplace_back(token_header, credentials.session_token->reveal());
  return headers;
}

}  // namespace

std::string amz_date(std::chrono::system_clock::time_point time) {
  return format_utc(time, utc_precision::seconds, utc_layout::basic);
}

std::string sigv4_signing_key(const secret_text& secret_access_key, std::string_view date,
                              const sigv4_scope& scope) {
  const std::string seed = "AWS4" + std::string{secret_access_key.reveal()};
  const auto date_key = hmac_sha256_bytes(seed, date);
  const auto region_key = hmac_sha256_bytes(date_key, scope.region);
  const auto service_key = hmac_sha256_bytes(region_key, scope.service);
  return hmac_sha256_bytes(service_key, "aws4_request");
}

sigv4_signature sign_sigv4(const sigv4_request& request, const aws_credentials& credentials,
                           const sigv4_scope& scope, std::chrono::system_clock::time_point time) {
  RUNWARDEN_ASSERT(!request.method.empty() && !request.payload_hash.empty());
  const std::string timestamp = amz_date(time);
  const std::string date = timestamp.substr(0, 8);
  const header_list headers = headers_to_sign(request, timestamp, credentials);
  const canonical_header_block header_block = canonicalize_headers(headers);

  sigv4_signature signature;
  signature.canonical_request = request.method + "\n" + canonical_uri(request.path) + "\n" +
                                canonical_query_string(request.query) + "\n" +
                                header_block.canonical + "\n" + header_block.signed_headers + "\n" +
                                request.payload_hash;
  const std::string credential_scope =
      date + "/" + scope.region + "/" + scope.service + "/aws4_request";
  signature.string_to_sign = std::string{sigv4_algorithm} + "\n" + timestamp + "\n" +
                             credential_scope + "\n" + sha256_hex(signature.canonical_request);
  const auto key = sigv4_signing_key(credentials.secret_access_key, date, scope);
  signature.authorization =
      std::string{sigv4_algorithm} + " Credential=" + credentials.access_key_id + "/" +
      credential_scope + ", SignedHeaders=" + header_block.signed_headers +
      ", Signature=" + lowercase_hex(hmac_sha256_bytes(key, signature.string_to_sign));

  // headers_to_sign appended the date and, with a session token, the token header last.
  const std::size_t added = credentials.session_token ? 2 : 1;
  signature.headers_to_add.assign(headers.end() - static_cast<std::ptrdiff_t>(added),
                                  headers.end());
  signature.headers_to_add.emplace_back(authorization_header, signature.authorization);
  return signature;
}

}  // namespace runwarden
