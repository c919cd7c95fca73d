// See config_aws_values.hpp. Lifecycle states are written as AWS writes them
// ("Warmed:Terminated"), so a value copied from the AWS documentation is accepted as is.
#include "src/config/config_aws_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "src/aws/imds/imds_endpoint.hpp"
#include "src/aws/imds/target_lifecycle_state.hpp"
#include "src/config/config_cloud_values.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 3> rebalance_words{"ignore", "log", "drain"};
constexpr std::array<std::string_view, 3> scheduled_action_words{"drain", "drain_ahead", "log"};
// The page changes over days; reading it more often only loads the metadata service.
constexpr std::chrono::milliseconds scheduled_events_interval_min{std::chrono::seconds{1}};

std::optional<scheduled_event_action> expect_scheduled_action(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(scheduled_action_words);
  if (!word) return std::nullopt;
  return parse_scheduled_event_action(*word);
}

bool read_action_for_code(config_value& value, std::string_view code) {
  const auto action = expect_scheduled_action(value);
  if (action) value.config().aws.scheduled_events.actions[std::string{code}] = *action;
  return action.has_value();
}
// Each poll makes up to five requests; polling faster only loads the metadata service.
constexpr std::chrono::milliseconds poll_interval_min{100};
// A spot notice comes two minutes ahead: read later than this, a quarter of it is gone.
constexpr std::chrono::milliseconds spot_poll_interval_max{std::chrono::seconds{30}};
constexpr std::chrono::milliseconds spot_notice_lead{std::chrono::minutes{2}};

}  // namespace

// The key [cloud] provider replaced; kept working for a while, with a warning naming it.
bool read_aws_provider(config_value& value) {
  if (!read_cloud_provider(value)) return false;
  value.warn("is deprecated: write [cloud] provider instead (it takes the same values)");
  return true;
}

bool read_aws_imds_endpoint(config_value& value) {
  const std::optional<std::string> endpoint = value.expect_nonempty_string(
      "leave the key out for AWS_EC2_METADATA_SERVICE_ENDPOINT or http://169.254.169.254");
  if (!endpoint) return false;
  if (const auto problem = imds_endpoint_problem(*endpoint)) {
    value.refuse(*problem);
    return false;
  }
  value.config().aws.imds_endpoint = *endpoint;
  return true;
}

bool read_aws_poll_interval(config_value& value) {
  const auto interval = value.expect_duration();
  if (!interval) return false;
  if (*interval < poll_interval_min) {
    value.refuse(fmt::format("must be at least {} ms (each poll makes several requests)",
                             poll_interval_min.count()));
    return false;
  }
  value.config().aws.poll_interval = *interval;
  return true;
}

bool read_aws_spot_poll_interval(config_value& value) {
  const auto interval = value.expect_duration();
  if (!interval) return false;
  if (*interval < poll_interval_min || *interval > spot_poll_interval_max) {
    value.refuse(
        fmt::format("must be between {} ms and {} s (a spot notice comes two "
                    "minutes ahead)",
                    poll_interval_min.count(), spot_poll_interval_max.count() / 1000));
    return false;
  }
  value.config().aws.spot_poll_interval = *interval;
  return true;
}

bool read_aws_spot_safety_margin(config_value& value) {
  const auto margin = value.expect_duration();
  if (!margin) return false;
  if (*margin >= spot_notice_lead) {
    value.refuse(
        fmt::format("must be less than {} s: a spot notice comes two minutes ahead, "
                    "and a margin that long would stop the runner's jobs at the notice",
                    spot_notice_lead.count() / 1000));
    return false;
  }
  value.config().aws.watch.spot_safety_margin = *margin;
  return true;
}

bool read_aws_drain_states(config_value& value) {
  const toml::array* array = value.node().as_array();
  if (array == nullptr) {
    value.refuse_type("an array of lifecycle states such as [\"Terminated\"]");
    return false;
  }
  std::vector<std::string_view> words;
  for (const auto state : all_target_lifecycle_states)
    if (state != target_lifecycle_state::in_service) words.push_back(to_string(state));
  std::vector<target_lifecycle_state> states;
  bool all_accepted = true;
  for (std::size_t index = 0; index < array->size(); ++index) {
    // InService is where a healthy runner lives: draining on it would drain at once.
    const std::optional<std::string_view> word = value.element(index).expect_word(words);
    if (!word) {
      all_accepted = false;
      continue;
    }
    const auto state = *parse_target_lifecycle_state(*word);
    if (std::find(states.begin(), states.end(), state) == states.end()) states.push_back(state);
  }
  if (!all_accepted) return false;
  value.config().aws.watch.drain_states = std::move(states);
  return true;
}

bool read_aws_rebalance(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(rebalance_words);
  if (word) value.config().aws.watch.rebalance = *parse_rebalance_action(*word);
  return word.has_value();
}

bool read_aws_scheduled_events_interval(config_value& value) {
  const std::optional<std::string> text =
      value.expect_string("\"none\" or a duration string such as \"60s\"");
  if (!text) return false;
  if (*text == "none") {
    value.config().aws.scheduled_events_interval.reset();
    return true;
  }
  const duration_parse_result parsed = parse_duration(*text);
  if (!parsed.value) {
    value.refuse(fmt::format("{}; write \"none\" not to read the page", parsed.error));
    return false;
  }
  if (*parsed.value < scheduled_events_interval_min) {
    value.refuse(fmt::format("must be at least {} s (EC2 schedules events days ahead)",
                             scheduled_events_interval_min.count() / 1000));
    return false;
  }
  value.config().aws.scheduled_events_interval = parsed.value;
  return true;
}

bool read_scheduled_instance_stop(config_value& value) {
  return read_action_for_code(value, "instance-stop");
}
bool read_scheduled_instance_retirement(config_value& value) {
  return read_action_for_code(value, "instance-retirement");
}
bool read_scheduled_instance_reboot(config_value& value) {
  return read_action_for_code(value, "instance-reboot");
}
bool read_scheduled_system_reboot(config_value& value) {
  return read_action_for_code(value, "system-reboot");
}
bool read_scheduled_system_maintenance(config_value& value) {
  return read_action_for_code(value, "system-maintenance");
}
bool read_scheduled_other_codes(config_value& value) {
  return store(expect_scheduled_action(value), value.config().aws.scheduled_events.other_codes);
}

void check_scheduled_event_keys(config_reader& reader) {
  const auto& policy = reader.config().aws.scheduled_events;
  if (policy.margin < policy.lead_time) return;
  if (reader.rejected("aws.scheduled_event_margin") ||
      reader.rejected("aws.scheduled_event_lead_time"))
    return;
  const auto line = reader.accepted_line("aws.scheduled_event_margin");
  const std::string_view key =
      line ? "aws.scheduled_event_margin" : "aws.scheduled_event_lead_time";
  reader.report(line ? *line : reader.accepted_line(key).value_or(0), key,
                fmt::format("the margin ({}) must be shorter than aws.scheduled_event_lead_time "
                            "({}), or a drain_ahead would start past its own deadline",
                            format_duration(policy.margin), format_duration(policy.lead_time)));
}

}  // namespace runwarden
