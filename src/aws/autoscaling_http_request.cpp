// See autoscaling_http_request.hpp.
#include "src/aws/autoscaling_http_request.hpp"

#include "src/util/sha256_digest.hpp"

namespace runwarden {

signed_http_request sign_autoscaling_call(const autoscaling_call& call,
                                          const autoscaling_endpoint& endpoint,
                                          const aws_credentials& credentials,
                                          const std::string& region,
                                          std::chrono::system_clock::time_point now,
                                          std::string_view signing_name) {
  signed_http_request http{"POST", endpoint.url, {}, form_encode(call.parameters)};
  http.headers = {{"Content-Type", std::string{form_content_type}}, {"Host", endpoint.host_header}};
  const sigv4_request request{"POST", endpoint.path, {}, http.headers, sha256_hex(http.body)};
  auto signature = sign_sigv4(request, credentials, {region, std::string{signing_name}}, now);
  for (auto& header : signature.headers_to_add) http.headers.push_back(std::move(header));
  return http;
}

}  // namespace runwarden
