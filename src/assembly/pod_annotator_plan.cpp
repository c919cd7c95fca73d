// See pod_annotator_plan.hpp.
#include "src/assembly/pod_annotator_plan.hpp"

#include <fstream>
#include <sstream>

#include "src/util/secret_file.hpp"

namespace runwarden {

namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream stream{path};
  if (!stream) return std::nullopt;
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

// The projected token is world-readable by design (the volume's default mode 0644), so its
// mode is no warning; its content never leaves the request's header.
std::optional<std::string> read_token(const std::string& path) {
  return read_secret_file(path, "service account token file", file_exposure::not_secret).secret;
}

}  // namespace

pod_annotator_planning plan_pod_annotator(const settings& config,
                                          const environment_map& environment,
                                          std::shared_ptr<metrics_registry> metrics) {
  const kubernetes_settings& kubernetes = config.kubernetes;
  if (!kubernetes.enabled) return {};
  const auto namespace_text = kubernetes.pod_namespace.empty()
                                  ? read_text(kubernetes.service_account_directory + "/namespace")
                                  : std::nullopt;
  auto found = find_in_cluster(kubernetes, environment, namespace_text);
  if (!found.address) return {std::nullopt, std::move(found.error)};
  return {pod_annotator_wiring{
              .address = std::move(*found.address),
              .policy = kubernetes.policy,
              .drain_timeout = config.drain.timeout,
              .http_port = {},
              .warden = {},
              .read_token = read_token,
              .patch_observer =
                  [metrics](pod_patch_outcome outcome) { metrics->count_pod_patch(outcome); }},
          {}};
}

}  // namespace runwarden
