// See config_scaling_values.hpp. The group's own min and max are only known once it is read,
// so the ceiling is checked against them at run time (the scaler says so on every hold);
// here only what the file alone can show is refused.
#include "src/config/config_scaling_values.hpp"

#include <fmt/format.h>

namespace runwarden {

namespace {

// No Auto Scaling group holds more instances than this (the AWS quota is far below it); a
// larger number is a typo.
constexpr std::int64_t group_size_limit = 100000;
// A runner with more job slots than this is a typo too.
constexpr std::int64_t capacity_limit = 100000;

scaling_policy& policy_of(config_value& value) { return value.config().scaling.policy; }

bool read_positive(config_value& value, std::chrono::milliseconds& target, std::string_view why) {
  return store(value.expect_positive_duration(why), target);
}

}  // namespace

bool read_scaling_enabled(config_value& value) {
  return store(value.expect_bool(), value.config().scaling.enabled);
}

bool read_scaling_capacity(config_value& value) {
  return store(value.expect_integer(1, capacity_limit), value.config().scaling.capacity);
}

bool read_scaling_window(config_value& value) {
  return read_positive(value, policy_of(value).window,
                       "a zero window would scale up on a single saturated sample");
}

bool read_scaling_dip_tolerance(config_value& value) {
  return store(value.expect_duration(), policy_of(value).dip_tolerance);
}

bool read_scaling_step(config_value& value) {
  return store(value.expect_integer(1, group_size_limit), policy_of(value).step);
}

bool read_scaling_ceiling(config_value& value) {
  return store(value.expect_integer(1, group_size_limit), policy_of(value).ceiling);
}

bool read_scaling_idle_threshold(config_value& value) {
  return read_positive(value, policy_of(value).idle_threshold,
                       "a zero threshold would give an instance up between two jobs");
}

bool read_scaling_cooldown(config_value& value) {
  return read_positive(value, policy_of(value).cooldown,
                       "a zero cooldown would call the group again before it could react");
}

bool read_scaling_honor_cooldown(config_value& value) {
  return store(value.expect_bool(), policy_of(value).honor_cooldown);
}

bool read_scaling_jitter(config_value& value) {
  return store(value.expect_duration(), policy_of(value).jitter);
}

bool read_scaling_protect_while_busy(config_value& value) {
  return store(value.expect_bool(), policy_of(value).protect_while_busy);
}

bool read_scaling_protection_release(config_value& value) {
  return store(value.expect_duration(), policy_of(value).protection_release);
}

bool read_scaling_protection_interval_min(config_value& value) {
  return read_positive(value, policy_of(value).protection_interval_min,
                       "protection calls need a rate limit, or a busy runner would flood the "
                       "Auto Scaling API");
}

bool read_scaling_retry_initial(config_value& value) {
  return read_positive(value, policy_of(value).retry_initial,
                       "a zero wait would hammer an Auto Scaling API that throttles");
}

bool read_scaling_retry_max(config_value& value) {
  return read_positive(value, policy_of(value).retry_max,
                       "a zero wait would hammer an Auto Scaling API that throttles");
}

void check_scaling_keys(config_reader& reader) {
  const scaling_settings& scaling = reader.config().scaling;
  const scaling_policy& policy = scaling.policy;
  if (policy.ceiling && policy.step > *policy.ceiling && !reader.rejected("scaling.step") &&
      !reader.rejected("scaling.ceiling")) {
    const auto line = reader.accepted_line("scaling.step");
    const std::string_view key = line ? "scaling.step" : "scaling.ceiling";
    reader.report(line ? *line : reader.accepted_line("scaling.ceiling").value_or(0), key,
                  fmt::format("step {} is larger than scaling.ceiling ({}): a scale-up could "
                              "never add a whole step",
                              policy.step, *policy.ceiling));
  }
  // An instance that gives itself up is drained through its terminate lifecycle hook, which
  // only the AWS lifecycle watcher sees; the Auto Scaling calls need its instance identity.
  if (scaling.enabled && reader.config().cloud.provider != cloud_provider::aws &&
      !reader.rejected("cloud.provider") && !reader.rejected("aws.provider")) {
    reader.report(reader.accepted_line("scaling.enabled").value_or(0), "scaling.enabled",
                  "needs cloud.provider = \"aws\": an instance that gives itself up is drained "
                  "through its terminate lifecycle hook, which only the AWS provider watches");
  }
}

}  // namespace runwarden
