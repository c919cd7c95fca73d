#pragma once
// One Auto Scaling call as the HTTP request to send: POST of the form-encoded parameters to
// the endpoint, with Content-Type, Host and the SigV4 headers. The Host header is set
// explicitly so that what is signed is what is sent, whatever the HTTP client would pick.
// The headers carry the session token: never log them. Another Query service's call is
// signed the same way under its own signing name (aws_query_service.hpp).

#include <chrono>
#include <string>

#include "src/aws/autoscaling_endpoint.hpp"
#include "src/aws/autoscaling_requests.hpp"
#include "src/aws/sigv4_signer.hpp"

namespace runwarden {

inline constexpr std::string_view autoscaling_service = "autoscaling";

struct signed_http_request {
  std::string method;
  std::string url;
  header_list headers;
  std::string body;
};

signed_http_request sign_autoscaling_call(const autoscaling_call& call,
                                          const autoscaling_endpoint& endpoint,
                                          const aws_credentials& credentials,
                                          const std::string& region,
                                          std::chrono::system_clock::time_point now,
                                          std::string_view signing_name = autoscaling_service);

}  // namespace runwarden
