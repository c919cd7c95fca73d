#pragma once
// What runwarden learns from the runner's own servers and does through them: the metrics
// poller (how many jobs the runner has) and the unregistration step at the end of a drain.
// gitlab-runner's config.toml, when given, supplies the metrics address and the runners to
// unregister, so nothing is configured twice. Each client gets its own HTTP port, so a slow
// CI server never delays a scrape.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "caf/all.hpp"
#include "src/config/settings.hpp"
#include "src/ports/http/http_worker.hpp"
#include "src/unregister/unregister_outcome.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

class runner_awareness {
public:
  struct start_result {
    std::unique_ptr<runner_awareness> awareness;  // null exactly when error is set
    std::string error;                            // a config problem: exit_config
  };

  // Plans everything and reads the files (gitlab-runner's config, token files) before any
  // actor exists, so a mistake stops runwarden before the runner starts.
  // The runner's metrics address, for the gitlab kind, is gitlab-runner's own: its
  // --listen-address flag in the command, else LISTEN_ADDRESS in `environment`, else
  // config.toml's listen_address (an explicit runner.metrics_url wins over all three).
  static start_result plan(const settings& config, const environment_map& environment);

  // Starts the unregistration step (if any), before the warden that is to call it;
  // `observer` hears the outcome of every attempt (for /metrics).
  void start_unregistration(caf::actor_system& system, std::uint64_t seed,
                            std::function<void(outcome_kind)> observer = {});
  // Starts the poller (if the metrics URL is known), telling `warden` of the runner's jobs.
  void start_metrics(caf::actor_system& system, const caf::actor& warden);
  bool unregisters() const { return static_cast<bool>(unregistration_plan_); }
  bool reads_metrics() const { return !metrics_url_.empty(); }
  // The CI server's URL a drain unregisters from (the first, if several); empty if none.
  const std::string& unregister_url() const { return unregister_url_; }
  // gitlab-runner's shutdown_timeout from its config.toml; nullopt when none was read.
  std::optional<std::chrono::seconds> gitlab_shutdown_timeout() const {
    return gitlab_shutdown_timeout_;
  }
  // Its first incarnation; the warden hears of later ones from its supervisor.
  const caf::actor& unregistration() const { return unregistration_; }
  // The supervisors of the poller and the unregistration step, for the warden to listen to
  // and for run_command to monitor.
  std::vector<caf::actor> supervisors() const;
  void stop();

  ~runner_awareness();

private:
  struct unregistration_plan;
  runner_awareness();

  std::string metrics_url_;
  std::string unregister_url_;
  std::chrono::milliseconds metrics_interval_{0};
  std::chrono::milliseconds metrics_interval_draining_{0};
  std::optional<std::chrono::seconds> gitlab_shutdown_timeout_;
  std::unique_ptr<unregistration_plan> unregistration_plan_;
  std::shared_ptr<http_worker> metrics_worker_;
  std::shared_ptr<http_worker> unregister_worker_;
  caf::actor metrics_port_, poller_supervisor_, unregister_port_, unregistration_supervisor_;
  caf::actor unregistration_;
};

}  // namespace runwarden
