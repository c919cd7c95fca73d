// See config_aws_values.hpp. Lifecycle states are written as AWS writes them
// ("Warmed:Terminated"), so a value copied from the AWS documentation is accepted as is.
#include "src/config/config_aws_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "src/aws/imds/imds_endpoint.hpp"
#include "src/aws/imds/target_lifecycle_state.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 2> provider_words{"none", "aws"};
constexpr std::array<std::string_view, 3> rebalance_words{"ignore", "log", "drain"};
// Each poll makes up to five requests; polling faster only loads the metadata service.
constexpr std::chrono::milliseconds poll_interval_min{100};

}  // namespace

bool read_aws_provider(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(provider_words);
  if (!word) return false;
  value.config().aws.provider =
      *word == "aws" ? lifecycle_provider::aws : lifecycle_provider::none;
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

}  // namespace runwarden
