// See autoscaling_link.hpp. The Auto Scaling client is a port like the HTTP port: it holds
// no decision, only caches (identity, credentials), so it runs unsupervised; the hooks actor
// and the scaler, which decide, run under supervisors of their own.
#include "src/app/autoscaling_link.hpp"

#include <fstream>
#include <sstream>

#include "actors/autoscaling_client/autoscaling_client_actor.hpp"
#include "actors/http_port/http_port_actor.hpp"
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"
#include "actors/supervisor/worker_supervision.hpp"
#include "src/app/scaling_plan.hpp"
#include "src/aws/credentials_chain.hpp"
#include "src/aws/imds/imds_endpoint.hpp"
#include "src/aws/shared_credentials_file.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

std::optional<std::string> file_content(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream file{path, std::ios::binary};
  if (!file) return std::nullopt;
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

std::optional<std::string> configured_region(const environment_map& environment) {
  for (const char* name : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    const auto found = environment.find(name);
    if (found != environment.end() && !found->second.empty()) return found->second;
  }
  return std::nullopt;
}

}  // namespace

autoscaling_link::plan_result autoscaling_link::plan(const settings& config,
                                                     const environment_map& environment,
                                                     std::optional<scaling_policy> scaling) {
  const bool aws = config.cloud.provider == cloud_provider::aws;
  if (scaling && !aws)
    return {nullptr, "scaling.enabled needs cloud.provider = \"aws\": the scaler finds its "
                     "instance and group through the instance metadata service"};
  if (!aws || (!config.aws.complete_lifecycle_hooks && !scaling)) return {};
  auto endpoint = resolve_imds_endpoint(config.aws.imds_endpoint, environment);
  if (!endpoint.error.empty()) return {nullptr, std::move(endpoint.error)};
  auto chain = start_credentials_chain(environment,
                                       file_content(shared_credentials_path(environment)));
  if (!chain.error.empty()) return {nullptr, "AWS credentials: " + chain.error};
  std::unique_ptr<autoscaling_link> link{new autoscaling_link};
  link->config_ = config;
  link->environment_ = environment;
  link->imds_endpoint_ = std::move(endpoint.endpoint);
  link->fixed_credentials_ = std::move(chain.fixed);
  link->scaling_ = std::move(scaling);
  warden_logger()->info("auto scaling: credentials from {}", chain.source);
  return {std::move(link), {}};
}

void autoscaling_link::start(caf::actor_system& system, const caf::actor& warden,
                             bool ready_needs_metrics, std::uint64_t seed,
                             std::shared_ptr<metrics_registry> metrics) {
  worker_ = std::make_shared<http_worker>();
  port_ = caf::actor_cast<caf::actor>(system.spawn(http_port, worker_));
  client_ = system.spawn(autoscaling_client_actor,
                         autoscaling_client_wiring{
                             .http_port = caf::actor_cast<http_port_actor>(port_),
                             .imds_endpoint = imds_endpoint_,
                             .fixed_credentials = fixed_credentials_,
                             .region = configured_region(environment_),
                             .environment = environment_,
                             .random_seed = seed});
  if (config_.aws.complete_lifecycle_hooks) {
    lifecycle_hooks_wiring hooks{.autoscaling_client = client_,
                                 .warden = warden,
                                 .hook_name = config_.aws.lifecycle_hook,
                                 .seen_late_by = config_.aws.poll_interval,
                                 .random_seed = seed + 1,
                                 .launch_hook_name = config_.aws.launch_hook,
                                 .ready_needs_metrics = ready_needs_metrics,
                                 .launch_ready_timeout = config_.aws.launch_ready_timeout,
                                 .heartbeat_observer =
                                     [metrics](heartbeat_outcome outcome) {
                                       metrics->count_lifecycle_heartbeat(outcome);
                                     },
                                 .completion_observer =
                                     [metrics](completion_result result) {
                                       metrics->count_lifecycle_completion(result);
                                     }};
    hooks_supervisor_ = spawn_worker_supervisor(
        system, {{std::string{lifecycle_hooks_child_id}}, [hooks](caf::local_actor* parent) {
                   return parent->spawn(lifecycle_hooks_actor, hooks);
                 }});
  }
  if (scaling_) {
    auto scaler = wire_scaler(*scaling_, warden, client_, seed + 2, std::move(metrics));
    scaler_supervisor_ = spawn_worker_supervisor(
        system, {{std::string{scaler_child_id}}, [scaler](caf::local_actor* parent) {
                   return parent->spawn(scaler_actor, scaler);
                 }});
  }
}

std::vector<caf::actor> autoscaling_link::supervisors() const {
  std::vector<caf::actor> result;
  for (const auto& supervisor : {hooks_supervisor_, scaler_supervisor_})
    if (supervisor) result.push_back(supervisor);
  return result;
}

void autoscaling_link::stop() {
  for (const auto& actor : {scaler_supervisor_, hooks_supervisor_, client_, port_})
    if (actor) caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
  if (worker_) worker_->stop();
}

autoscaling_link::~autoscaling_link() { stop(); }

}  // namespace runwarden
