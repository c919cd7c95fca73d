// See config_publish_values.hpp.
#include "src/config/config_publish_values.hpp"

#include <array>
#include <string_view>

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 2> publish_words{"none", "cloudwatch"};
constexpr std::array<std::string_view, 2> scaler_words{"builtin", "group"};
// CloudWatch keeps high-resolution points per second; target tracking evaluates at most
// once a minute, so a slower point would leave its periods empty.
constexpr std::chrono::milliseconds publish_interval_min{std::chrono::seconds{1}};
constexpr std::chrono::milliseconds publish_interval_max{std::chrono::seconds{60}};
// The API reference: a namespace is 1 to 255 characters, and "AWS/" is AWS's own.
constexpr std::size_t namespace_length_max = 255;

}  // namespace

bool read_scaling_publish(config_value& value) {
  const auto word = value.expect_word(publish_words);
  if (!word) return false;
  value.config().scaling.publish =
      *word == "cloudwatch" ? metrics_publish::cloudwatch : metrics_publish::none;
  return true;
}

bool read_scaling_publish_interval(config_value& value) {
  const auto interval = value.expect_duration();
  if (!interval) return false;
  if (*interval < publish_interval_min || *interval > publish_interval_max ||
      *interval % std::chrono::seconds{1} != std::chrono::milliseconds{0}) {
    value.refuse(
        "must be whole seconds from \"1s\" to \"60s\": CloudWatch files points by "
        "the second, and target tracking needs one a minute at least");
    return false;
  }
  value.config().scaling.publish_interval = *interval;
  return true;
}

bool read_scaling_publish_namespace(config_value& value) {
  auto name = value.expect_nonempty_string("leave the key out for \"Runwarden\"");
  if (!name) return false;
  if (name->size() > namespace_length_max || name->starts_with("AWS/") || name->starts_with(":")) {
    value.refuse(
        "must be at most 255 characters, not start with ':' and not with \"AWS/\", "
        "which is AWS's own");
    return false;
  }
  value.config().scaling.publish_namespace = std::move(*name);
  return true;
}

bool read_scaling_scaler(config_value& value) {
  const auto word = value.expect_word(scaler_words);
  if (!word) return false;
  value.config().scaling.policy.decide_capacity = *word == "builtin";
  return true;
}

void check_publish_keys(config_reader& reader) {
  const scaling_settings& scaling = reader.config().scaling;
  // "auto" may find AWS; found elsewhere, nothing is opened for CloudWatch (autoscaling_plan).
  const auto provider = reader.config().cloud.provider;
  if (scaling.publish != metrics_publish::none && provider != cloud_provider::aws &&
      provider != cloud_provider::detect && !reader.rejected("cloud.provider") &&
      !reader.rejected("aws.provider")) {
    reader.report(reader.accepted_line("scaling.publish").value_or(0), "scaling.publish",
                  "\"cloudwatch\" needs cloud.provider = \"aws\" (or \"auto\"): the points "
                  "carry the instance's Auto Scaling group, found through the instance metadata "
                  "service");
  }
  if (!scaling.policy.decide_capacity && !scaling.enabled) {
    reader.report(reader.accepted_line("scaling.scaler").value_or(0), "scaling.scaler",
                  "\"group\" keeps scale-in protection while busy, which needs "
                  "scaling.enabled = true");
  }
}

}  // namespace runwarden
