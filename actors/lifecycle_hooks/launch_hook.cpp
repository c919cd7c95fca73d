// See launch_hook.hpp.
#include "actors/lifecycle_hooks/launch_hook.hpp"

#include <algorithm>

#include "src/aws/autoscaling_failure.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

std::string seconds_of(std::chrono::nanoseconds span) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(span).count()) + " s";
}

void answer(hooks_pointer self, lifecycle_action_result result, const std::string& why) {
  auto& launch = *self->state.launch;
  if (launch.answered) return;
  launch.answered = true;
  const auto name = launch.hook.hook_name;
  const bool proceed = result == lifecycle_action_result::proceed;
  if (proceed)
    warden_logger()->info("lifecycle hooks: {}; completing launch hook {} with CONTINUE", why,
                          name);
  else
    warden_logger()->error("lifecycle hooks: {}; completing launch hook {} with ABANDON", why,
                           name);
  complete_hook(self, name, result, [name](bool confirmed, const std::string& detail) {
    if (confirmed)
      warden_logger()->info("lifecycle hooks: launch hook {}: {}", name, detail);
    else
      warden_logger()->error("lifecycle hooks: launch hook {}: {}", name, detail);
  });
}

void beat_while_waiting(hooks_pointer self) {
  const auto& launch = *self->state.launch;
  if (launch.answered) return;
  record_heartbeat(self, launch.hook.hook_name);
  run_later(self, launch.hook.heartbeat_timeout / 2, [=] { beat_while_waiting(self); });
}

void wait_for_readiness(hooks_pointer self, const lifecycle_hook& hook) {
  auto& state = self->state;
  const auto now = now_of(self);
  const auto hook_ends = lifecycle_action_for(hook, now, state.wiring.seen_late_by).expires_at;
  // ABANDON must reach AWS before the hook ends by itself with its default result.
  const auto give_up_at = std::min<instant>(now + state.wiring.launch_ready_timeout,
                                            hook_ends - hook.heartbeat_timeout / 2);
  state.launch = launch_wait{hook, give_up_at};
  warden_logger()->info(
      "lifecycle hooks: launch hook {} waits for the runner to be ready "
      "(at most {})",
      hook.hook_name, seconds_of(give_up_at - now));
  beat_while_waiting(self);
  run_later(self, give_up_at - now, [=] {
    answer(self, lifecycle_action_result::abandon,
           "the runner was not ready within " + seconds_of(give_up_at - now));
  });
  if (state.last_snapshot) launch_snapshot(self, *state.last_snapshot);
}

void launch_lookup_failed(hooks_pointer self, const autoscaling_failure& failure) {
  if (!retrying_can_help(failure.kind)) {
    warden_logger()->error("lifecycle hooks: the launch hook: {}; it ends at its timeout",
                           failure.description);
    return;
  }
  const auto wait = backoff(self, ++self->state.launch_lookups_failed);
  warden_logger()->warn("lifecycle hooks: the launch hook: {}; looking again in {} ms",
                        failure.description,
                        std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
  run_later(self, wait, [=] { watch_launch(self); });
}

}  // namespace

bool runner_ready(const warden_snapshot& snapshot, bool needs_metrics) {
  // Checked against gitlab-runner 19.4.0 (commands/multi.go run(), serveHealthReady;
  // commands/boot_verify.go; commands/internal/process_state/tracker.go). Its
  // gitlab_runner_process_state_info (19.1.0+) says "starting" until run() calls
  // SetRunning(); since 19.2.0 that comes only after the boot-verify canary passed, right
  // where /health/ready turns from 503 "boot-verify pending" to 200. Its metrics answer
  // before that (the server starts first), so they alone do not make it ready when it says
  // a state. A runner that says none (before 19.1) has no boot-verify: its metrics answering
  // is the sign.
  return snapshot.status == warden_status::running && snapshot.runner_pid &&
         (!needs_metrics || snapshot.jobs_running.has_value()) &&
         (snapshot.runner_state.empty() || snapshot.runner_state == "running");
}

void watch_launch(hooks_pointer self) {
  if (!self->state.wiring.answer_launch_hook) return;
  const failure_handler failed = [=](const autoscaling_failure& f) {
    launch_lookup_failed(self, f);
  };
  read_instance(
      self,
      [=](const std::string& lifecycle_state) {
        if (lifecycle_state != "Pending:Wait") return;  // launched already, or no hook at all
        const auto& wiring = self->state.wiring;
        read_hook(
            self, launching_transition, wiring.launch_hook_name, "aws.launch_hook",
            [=](const hook_choice& choice) {
              if (choice.hook) return wait_for_readiness(self, *choice.hook);
              if (!choice.problem.empty())
                warden_logger()->error("lifecycle hooks: {}", choice.problem);
            },
            failed);
      },
      failed);
}

void launch_snapshot(hooks_pointer self, const warden_snapshot& snapshot) {
  auto& state = self->state;
  if (!state.launch || state.launch->answered) return;
  if (runner_ready(snapshot, state.wiring.ready_needs_metrics))
    return answer(self, lifecycle_action_result::proceed, "the runner is ready");
  if (snapshot.status == warden_status::shutting_down || snapshot.status == warden_status::gone)
    answer(self, lifecycle_action_result::abandon, "a drain began before the runner was ready");
}

}  // namespace runwarden
