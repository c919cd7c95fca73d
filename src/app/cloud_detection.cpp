// See cloud_detection.hpp. The probes run on threads of their own, each with its own libcurl
// handle and the request's own timeout, which is what bounds the wait.
#include "src/app/cloud_detection.hpp"

#include <future>

#include "src/aws/imds/imds_endpoint.hpp"
#include "src/aws/imds/imds_token_cache.hpp"
#include "src/azure/azure_documents.hpp"
#include "src/azure/azure_metadata_endpoint.hpp"
#include "src/gcp/gcp_metadata_endpoint.hpp"
#include "src/gcp/metadata_key_watch.hpp"
#include "src/ports/http/curl_transfer.hpp"

namespace runwarden {

namespace {

constexpr int http_ok = 200;
constexpr std::size_t probe_response_bytes_max = 16 * 1024;

std::string_view name_of(cloud_provider cloud) {
  switch (cloud) {
    case cloud_provider::aws:
      return "aws";
    case cloud_provider::azure:
      return "azure";
    case cloud_provider::gcp:
      return "gcp";
    case cloud_provider::none:
    case cloud_provider::detect:
      break;
  }
  return "none";
}

bool has_header(const http_response& answer, std::string_view name, std::string_view value) {
  for (const auto& [key, text] : answer.headers)
    if (key == name && (value.empty() || text == value)) return true;
  return false;
}

cloud_probe probe_of(cloud_provider cloud, const std::string& endpoint_error, std::string url,
                     http_header_list headers, std::string method,
                     std::chrono::milliseconds timeout) {
  if (!endpoint_error.empty()) return {cloud, {}, endpoint_error};
  return {cloud,
          http_request{.method = std::move(method),
                       .url = std::move(url),
                       .headers = std::move(headers),
                       .timeout = timeout,
                       .max_response_bytes = probe_response_bytes_max},
          {}};
}

}  // namespace

std::vector<cloud_probe> cloud_probes(const settings& config, const environment_map& environment,
                                      std::chrono::milliseconds timeout) {
  const auto aws = resolve_imds_endpoint(config.aws.imds_endpoint, environment);
  const auto azure = resolve_azure_metadata_endpoint(config.azure.metadata_endpoint);
  const auto gcp = resolve_gcp_metadata_endpoint(config.gcp.metadata_endpoint, environment);
  return {
      probe_of(cloud_provider::aws, aws.error, aws.endpoint + std::string{imds_token_path},
               {{std::string{imds_token_ttl_header}, "60"}}, "PUT", timeout),
      probe_of(cloud_provider::azure, azure.error, azure.endpoint + std::string{azure_compute_path},
               {{std::string{azure_metadata_header}, "true"}}, "GET", timeout),
      probe_of(cloud_provider::gcp, gcp.error,
               gcp.endpoint + std::string{gcp_metadata_path} + "instance/id",
               {{std::string{gcp_flavor_header}, std::string{gcp_flavor}}}, "GET", timeout),
  };
}

bool answers_as(cloud_provider cloud, const http_response& answer) {
  if (answer.status_code != http_ok) return false;
  switch (cloud) {
    case cloud_provider::aws:
      return !answer.body.empty() && has_header(answer, "x-aws-ec2-metadata-token-ttl-seconds", "");
    case cloud_provider::azure:
      return parse_azure_compute(answer.body).compute.has_value();
    case cloud_provider::gcp:
      return has_header(answer, "metadata-flavor", gcp_flavor);
    case cloud_provider::none:
    case cloud_provider::detect:
      break;
  }
  return false;
}

std::string name_of(const cloud_detection& detection) {
  return std::string{name_of(detection.found)};
}

cloud_detection detect_cloud(const settings& config, const environment_map& environment,
                             std::chrono::milliseconds timeout) {
  auto probes = cloud_probes(config, environment, timeout);
  std::vector<std::future<http_response>> answers;
  for (const auto& probe : probes) {
    if (probe.request.url.empty()) {
      answers.emplace_back();
      continue;
    }
    answers.push_back(std::async(std::launch::async, [request = probe.request] {
      curl_session session;
      return session.perform(request);
    }));
  }
  cloud_detection detection;
  for (std::size_t index = 0; index < probes.size(); ++index) {
    const auto& probe = probes[index];
    std::string seen = probe.problem;
    if (answers[index].valid()) {
      const auto answer = answers[index].get();
      const bool found = answers_as(probe.cloud, answer);
      if (found && detection.found == cloud_provider::none) detection.found = probe.cloud;
      seen = found                ? "answers"
             : answer.status_code ? "HTTP " + std::to_string(*answer.status_code)
                                  : "no answer";
    }
    detection.account +=
        (detection.account.empty() ? "" : ", ") + std::string{name_of(probe.cloud)} + ": " + seen;
  }
  return detection;
}

}  // namespace runwarden
