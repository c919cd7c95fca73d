// See cloudwatch_requests.hpp.
#include "src/aws/cloudwatch_requests.hpp"

#include <cstdio>
#include <ctime>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// Whole seconds in UTC, as botocore writes a timestamp without a fraction: runwarden samples
// at most once a second (StorageResolution 1). gmtime_r, never the local zone.
std::string iso8601(std::chrono::system_clock::time_point at) {
  const auto seconds = std::chrono::floor<std::chrono::seconds>(at.time_since_epoch());
  const auto whole = static_cast<std::time_t>(seconds.count());
  std::tm calendar{};
  ::gmtime_r(&whole, &calendar);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02dZ", calendar.tm_year + 1900,
                calendar.tm_mon + 1, calendar.tm_mday, calendar.tm_hour, calendar.tm_min,
                calendar.tm_sec);
  return text;
}

}  // namespace

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
    parameters.emplace_back(prefix + "Timestamp", iso8601(datum.timestamp));
    parameters.emplace_back(prefix + "Value", std::to_string(datum.value));
    parameters.emplace_back(prefix + "Unit", datum.unit);
    parameters.emplace_back(prefix + "StorageResolution", std::to_string(datum.storage_resolution));
  }
  return call;
}

}  // namespace runwarden
