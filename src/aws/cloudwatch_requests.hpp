#pragma once
// The CloudWatch call runwarden makes: PutMetricData (API 2010-08-01, Query protocol), with
// its members in the order of botocore's service model (cloudwatch/2010-08-01/service-2.json)
// as botocore's query serializer writes them: Namespace, then per datum
// MetricData.member.N.MetricName, .Dimensions.member.M.Name/.Value, .Timestamp, .Value,
// .Unit, .StorageResolution. Values are written as plain decimals, timestamps as ISO 8601 in
// UTC. The call is an autoscaling_call with the "cloudwatch" IAM prefix, so the same client
// signs, sends and retries it (aws_query_service.hpp).

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/aws/autoscaling_requests.hpp"

namespace runwarden {

inline constexpr std::string_view cloudwatch_api_version = "2010-08-01";
// The API reference's limits for one PutMetricData: 1000 datums, 30 dimensions each.
inline constexpr std::size_t metric_datums_per_call_max = 1000;
inline constexpr std::size_t dimensions_per_datum_max = 30;

struct metric_datum {
  std::string metric_name;
  std::vector<std::pair<std::string, std::string>> dimensions;  // name, value
  std::chrono::system_clock::time_point timestamp;
  std::uint64_t value = 0;  // runwarden publishes counts only
  std::string unit = "Count";
  // 1: high resolution (kept at one-second granularity); 60: standard.
  std::uint32_t storage_resolution = 1;
};

autoscaling_call put_metric_data(const std::string& metric_namespace,
                                 const std::vector<metric_datum>& datums);

}  // namespace runwarden
