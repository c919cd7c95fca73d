// See config_cloud_values.hpp.
#include "src/config/config_cloud_values.hpp"

#include <fmt/format.h>

#include <array>

#include "src/aws/imds/imds_endpoint.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 5> provider_words{"none", "aws", "azure", "gcp", "auto"};
constexpr std::array<std::string_view, 2> optional_action_words{"log", "drain"};
// Each poll is one small request to a local service; a Preempt gives 30 s in all.
constexpr std::chrono::milliseconds azure_poll_interval_min{100};
constexpr std::chrono::milliseconds azure_poll_interval_max{std::chrono::seconds{10}};
// A wait shorter than this only makes more requests; longer than an hour outlives proxies'
// idea of an idle connection.
constexpr std::chrono::seconds gcp_wait_timeout_min{10};
constexpr std::chrono::seconds gcp_wait_timeout_max{std::chrono::hours{1}};

cloud_provider provider_of(std::string_view word) {
  if (word == "aws") return cloud_provider::aws;
  if (word == "azure") return cloud_provider::azure;
  if (word == "gcp") return cloud_provider::gcp;
  if (word == "auto") return cloud_provider::detect;
  return cloud_provider::none;
}

}  // namespace

bool read_cloud_provider(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(provider_words);
  if (!word) return false;
  value.config().cloud.provider = provider_of(*word);
  return true;
}

bool read_azure_metadata_endpoint(config_value& value) {
  const std::optional<std::string> endpoint =
      value.expect_nonempty_string("leave the key out for http://169.254.169.254");
  if (!endpoint) return false;
  if (const auto problem = imds_endpoint_problem(*endpoint)) {
    value.refuse(*problem);
    return false;
  }
  value.config().azure.metadata_endpoint = *endpoint;
  return true;
}

bool read_azure_poll_interval(config_value& value) {
  const auto interval = value.expect_duration();
  if (!interval) return false;
  if (*interval < azure_poll_interval_min || *interval > azure_poll_interval_max) {
    value.refuse(fmt::format("must be from {}ms to {}s (a Preempt gives 30 s in all)",
                             azure_poll_interval_min.count(),
                             azure_poll_interval_max.count() / 1000));
    return false;
  }
  value.config().azure.poll_interval = *interval;
  return true;
}

bool read_azure_reboot(config_value& value) {
  const auto word = value.expect_word(optional_action_words);
  if (word) value.config().azure.events.reboot = *parse_azure_optional_action(*word);
  return word.has_value();
}

bool read_azure_redeploy(config_value& value) {
  const auto word = value.expect_word(optional_action_words);
  if (word) value.config().azure.events.redeploy = *parse_azure_optional_action(*word);
  return word.has_value();
}

bool read_gcp_metadata_endpoint(config_value& value) {
  const std::optional<std::string> endpoint = value.expect_nonempty_string(
      "leave the key out for GCE_METADATA_HOST or http://169.254.169.254");
  if (!endpoint) return false;
  if (const auto problem = imds_endpoint_problem(*endpoint)) {
    value.refuse(*problem);
    return false;
  }
  value.config().gcp.metadata_endpoint = *endpoint;
  return true;
}

bool read_gcp_wait_timeout(config_value& value) {
  const auto timeout = value.expect_duration();
  if (!timeout) return false;
  if (*timeout < gcp_wait_timeout_min || *timeout > gcp_wait_timeout_max) {
    value.refuse(fmt::format("must be from {}s to {}s", gcp_wait_timeout_min.count(),
                             gcp_wait_timeout_max.count()));
    return false;
  }
  value.config().gcp.wait_timeout = std::chrono::duration_cast<std::chrono::seconds>(*timeout);
  return true;
}

void check_cloud_provider_keys(config_reader& reader) {
  const auto older = reader.accepted_line("aws.provider");
  const auto newer = reader.accepted_line("cloud.provider");
  if (!older || !newer) return;
  reader.report(*older, "aws.provider",
                "cloud.provider (line " + std::to_string(*newer) +
                    ") replaces it: set the provider there only");
}

}  // namespace runwarden
