// See drain_config_from_settings.hpp.
#include "src/assembly/drain_config_from_settings.hpp"

#include "src/runner/gitlab_runner_config.hpp"
#include "src/runner/runner_kind.hpp"

namespace runwarden {

drain_config make_drain_config(const settings& config, std::uint64_t random_seed,
                               std::optional<std::chrono::seconds> gitlab_shutdown_timeout) {
  const auto kind_name = config.runner.kind.value_or(
      guess_runner_kind(config.runner.command.empty() ? "" : config.runner.command.front()));
  const auto& kind = kind_of(kind_name);
  // gitlab-runner, after SIGTERM, aborts its jobs and waits up to its shutdown_timeout for
  // their clean-up (commands/multi.go handleForcefulShutdown): SIGKILL only after that.
  duration kill_timeout = generic_kill_timeout;
  if (kind_name == runner_kind_name::gitlab)
    kill_timeout =
        gitlab_shutdown_timeout.value_or(gitlab_default_shutdown_timeout) + gitlab_kill_margin;
  if (config.drain.kill_timeout) kill_timeout = *config.drain.kill_timeout;
  drain_config result{
      .graceful_signal = kind.graceful_signal,
      .forceful_signal = kind.forceful_signal,
      .restart = config.restart,
      .drain_timeout = std::nullopt,
      .kill_timeout = kill_timeout,
      .random_seed = random_seed,
      .runner_start_grace = config.drain.start_grace,
      .unregister_alongside_below = config.drain.unregister_alongside_below,
  };
  if (kind.signals_configurable) {
    result.graceful_signal = config.runner.graceful_signal.value_or(result.graceful_signal);
    result.forceful_signal = config.runner.forceful_signal.value_or(result.forceful_signal);
  }
  if (config.drain.timeout) result.drain_timeout = *config.drain.timeout;
  // GitHub's runner has no signal that finishes its job: it is unregistered first, which
  // GitHub only allows once it is idle, and only then stopped.
  result.unregister = config.unregister.kind != unregister_kind::none;
  result.unregister_before_stop = config.unregister.kind == unregister_kind::github;
  if (result.unregister && config.unregister.alert_after)
    result.unregistration_alert_after = *config.unregister.alert_after;
  // The lifecycle hooks actor (autoscaling_plan) looks for the hook of a cloud drain; the
  // Azure watcher approves the event it drained for. Either is waited for when it is away.
  result.await_lifecycle_lookup =
      (config.cloud.provider == cloud_provider::aws && config.aws.complete_lifecycle_hooks) ||
      config.cloud.provider == cloud_provider::azure;
  return result;
}

}  // namespace runwarden
