// See config_kubernetes_values.hpp.
#include "src/config/config_kubernetes_values.hpp"

#include <limits>

namespace runwarden {

namespace {

kubernetes_settings& kubernetes_of(config_value& value) { return value.config().kubernetes; }

// More attempts than this only keeps a pod's API server busy with a patch it refuses.
constexpr std::int64_t patch_attempts_limit = 100;

}  // namespace

bool read_kubernetes_enabled(config_value& value) {
  return store(value.expect_bool(), kubernetes_of(value).enabled);
}

bool read_kubernetes_pod_name(config_value& value) {
  return store(value.expect_nonempty_string("leave the key out to use POD_NAME"),
               kubernetes_of(value).pod_name);
}

bool read_kubernetes_namespace(config_value& value) {
  return store(value.expect_nonempty_string("leave the key out to use the service account's"),
               kubernetes_of(value).pod_namespace);
}

bool read_kubernetes_service_account_directory(config_value& value) {
  return store(value.expect_nonempty_string("leave the key out for the standard one"),
               kubernetes_of(value).service_account_directory);
}

bool read_kubernetes_api_url(config_value& value) {
  auto url = value.expect_nonempty_string("leave the key out for KUBERNETES_SERVICE_HOST");
  if (url && !url->starts_with("https://")) {
    value.refuse("the API server is reached over https:// only");
    return false;
  }
  return store(std::move(url), kubernetes_of(value).api_url);
}

bool read_kubernetes_idle_deletion_cost(config_value& value) {
  return store(value.expect_integer(std::numeric_limits<std::int32_t>::min(),
                                    std::numeric_limits<std::int32_t>::max()),
               kubernetes_of(value).policy.idle_deletion_cost);
}

bool read_kubernetes_idle_hold_off(config_value& value) {
  return store(value.expect_duration(), kubernetes_of(value).policy.idle_hold_off);
}

bool read_kubernetes_patch_attempts(config_value& value) {
  return store(value.expect_integer(1, patch_attempts_limit),
               kubernetes_of(value).policy.attempts_max);
}

bool read_kubernetes_retry_initial(config_value& value) {
  return store(value.expect_positive_duration("a zero wait would spend every attempt at once"),
               kubernetes_of(value).policy.retry_initial);
}

bool read_kubernetes_retry_max(config_value& value) {
  return store(value.expect_duration(), kubernetes_of(value).policy.retry_max);
}

}  // namespace runwarden
