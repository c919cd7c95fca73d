// See pod_annotator_plan.hpp.
#include "src/assembly/pod_annotator_plan.hpp"

#include "src/util/secret_file.hpp"

namespace runwarden {

namespace {

// The projected token is world-readable by design (the volume's default mode 0644), so its
// mode is no warning; its content never leaves the request's header.
std::optional<std::string> read_token(const std::string& path) {
  return read_secret_file(path, "service account token file", file_exposure::not_secret).secret;
}

}  // namespace

pod_annotator_planning plan_pod_annotator(const settings& config,
                                          const environment_map& environment,
                                          const std::optional<std::string>& namespace_file,
                                          std::shared_ptr<metrics_registry> metrics) {
  const kubernetes_settings& kubernetes = config.kubernetes;
  if (!kubernetes.enabled) return {};
  auto found = find_in_cluster(kubernetes, environment,
                               kubernetes.pod_namespace.empty() ? namespace_file : std::nullopt);
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
