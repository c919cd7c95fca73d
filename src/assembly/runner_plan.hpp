#pragma once
// The runner's side of an instance's plan: what runwarden learns from the runner's own
// servers and does through them: where the metrics poller reads how many jobs the runner
// has, and whom the unregistration step at the end of a drain removes. gitlab-runner's
// config.toml, when given, supplies the metrics address and the runners to unregister, so
// nothing is configured twice. Pure: the files come read (instance_inputs).

#include <memory>
#include <string>
#include <vector>

#include "src/assembly/instance_inputs.hpp"
#include "src/config/settings.hpp"
#include "src/unregister/unregister_plan.hpp"
#include "src/util/process_environment.hpp"

namespace runwarden {

class runner_plan {
 public:
  struct plan_result {
    std::unique_ptr<runner_plan> planned;  // null exactly when error is set
    std::string error;                     // a config problem: exit_config
  };

  // Plans from the gathered inputs before any actor exists.
  // The runner's metrics address, for the gitlab kind, is gitlab-runner's own: its
  // --listen-address flag in the command, else LISTEN_ADDRESS in the environment, else
  // config.toml's listen_address (an explicit runner.metrics_url wins over all three).
  static plan_result plan(const instance_inputs& inputs);

  bool reads_metrics() const { return !metrics_url_.empty(); }
  // The CI server's URL a drain unregisters from (the first, if several); empty if none.
  const std::string& unregister_url() const { return unregister_url_; }
  // gitlab-runner's shutdown_timeout from its config.toml; nullopt when none was read.
  std::optional<std::chrono::seconds> gitlab_shutdown_timeout() const {
    return gitlab_shutdown_timeout_;
  }
  const std::string& metrics_url() const { return metrics_url_; }
  std::chrono::milliseconds metrics_interval() const { return metrics_interval_; }
  std::chrono::milliseconds metrics_interval_draining() const { return metrics_interval_draining_; }
  // The runners to unregister and how; null when a drain unregisters nothing.
  const unregister_plan* unregistration() const { return unregistration_plan_.get(); }

  ~runner_plan();

 private:
  runner_plan();

  std::string metrics_url_;
  std::string unregister_url_;
  std::chrono::milliseconds metrics_interval_{0};
  std::chrono::milliseconds metrics_interval_draining_{0};
  std::optional<std::chrono::seconds> gitlab_shutdown_timeout_;
  std::unique_ptr<unregister_plan> unregistration_plan_;
};

}  // namespace runwarden
