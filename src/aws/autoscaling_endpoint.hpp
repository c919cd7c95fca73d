#pragma once
// Where Auto Scaling calls go: AWS_ENDPOINT_URL_AUTO_SCALING, else AWS_ENDPOINT_URL (the
// SDKs' service-specific and global overrides, used by tests, LocalStack and VPC endpoints),
// else https://autoscaling.{region}.amazonaws.com (".com.cn" in the China regions). The URL
// is taken apart with libcurl's URL parser, since the Host header and the path are signed.
// Any Query service resolves the same way with its own names (resolve_query_endpoint).

#include <string>

#include "src/aws/aws_query_service.hpp"
#include "src/aws/credentials_lookup.hpp"

namespace runwarden {

struct autoscaling_endpoint {
  std::string url;          // scheme, authority and path, as requests are sent to it
  std::string host_header;  // "host" or "host:port" when the URL names a port
  std::string path;         // "/" unless the override has one
  std::string source;       // the variable it came from, or "the region" for the default
};

struct autoscaling_endpoint_resolution {
  std::optional<autoscaling_endpoint> endpoint;  // set exactly when error is empty
  std::string error;
};

autoscaling_endpoint_resolution resolve_autoscaling_endpoint(const environment_map& environment,
                                                             const std::string& region);

// The service's own variable, else AWS_ENDPOINT_URL, else {endpoint_prefix}.{region}.
autoscaling_endpoint_resolution resolve_query_endpoint(const environment_map& environment,
                                                       const std::string& region,
                                                       const aws_query_service& service);

}  // namespace runwarden
