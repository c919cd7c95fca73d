// See cloudwatch_requests.hpp.
#include "src/aws/cloudwatch_requests.hpp"

#include "src/util/assert.hpp"
#include "src/util/rfc3339_time.hpp"

namespace runwarden {

autoscaling_call put_metric_data(const std::string& metric_namespace,
                                 const std::vector<metric_datum>& datums) {
  RUNWARDEN_ASSERT(!datums.empty() && datums.size() <= metric_datums_per_call_max);
  autoscaling_call call{"PutMetricData", {}, cloudwatch_query_service.iam_prefix};
  auto& parameters = call.parameters;
  parameters.emplace_back("Action", call.action);
  parameters.emplace_back("Version", cloudwatch_api_version);
  parameters.emplace_back("Namespace", metric_namespace);
  for (std::size_t index = 0; index < datums.size(); ++index) {
    const auto& datum = datums[index];
    RUNWARDEN_ASSERT(datum.dimensions.size() <= dimensions_per_datum_max);
    const std::string prefix = "MetricData.member." + std::to_string(index + 1) + ".";
    parameters.emplace_back(prefix + "MetricName", datum.metric_name);
    for (std::size_t number = 0; number < datum.dimensions.size(); ++number) {
      const std::string dimension =
          prefix + "Dimensions.member." + std::to_string(number + 1) + ".";
      parameters.emplace_back(dimension + "Name", datum.dimensions[number].first);
      parameters.emplace_back(dimension + "Value", datum.dimensions[number].second);
    }
    // Whole seconds, as botocore writes a timestamp without a fraction: runwarden samples at
    // most once a second (StorageResolution 1).
    parameters.emplace_back(prefix + "Timestamp",
                            format_utc(datum.timestamp, utc_precision::seconds));
    parameters.emplace_back(prefix + "Value", std::to_string(datum.value));
    parameters.emplace_back(prefix + "Unit", datum.unit);
    parameters.emplace_back(prefix + "StorageResolution", std::to_string(datum.storage_resolution));
  }
  return call;
}

}  // namespace runwarden
