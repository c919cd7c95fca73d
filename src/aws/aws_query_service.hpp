#pragma once
// An AWS service that runwarden calls with the Query protocol (form-encoded POST, XML
// answers): what differs from one such service to the next is only its names. The Auto
// Scaling client (actors/autoscaling_client) runs once per service with one of these, so
// credentials, signing, endpoints and retries are written once for all of them.
//   signing_name       SigV4's service name (botocore's signingName)
//   endpoint_prefix    the regional host is {endpoint_prefix}.{region}.amazonaws.com
//   endpoint_variable  the SDKs' service-specific override (AWS_ENDPOINT_URL_<service id>)
//   iam_prefix         "autoscaling:" + Action is the IAM permission a call needs
//   log_name           how logs name it

#include <string_view>

namespace runwarden {

struct aws_query_service {
  std::string_view signing_name;
  std::string_view endpoint_prefix;
  std::string_view endpoint_variable;
  std::string_view iam_prefix;
  std::string_view log_name;
};

// botocore's data/autoscaling/2011-01-01/service-2.json.
inline constexpr aws_query_service autoscaling_query_service{
    "autoscaling", "autoscaling", "AWS_ENDPOINT_URL_AUTO_SCALING", "autoscaling", "auto scaling"};

// botocore's data/cloudwatch/2010-08-01/service-2.json (signingName and endpointPrefix
// "monitoring"; IAM calls the service "cloudwatch").
inline constexpr aws_query_service cloudwatch_query_service{
    "monitoring", "monitoring", "AWS_ENDPOINT_URL_CLOUDWATCH", "cloudwatch", "cloudwatch"};

}  // namespace runwarden
