// See lifecycle_hooks_actor.hpp. The terminate side lives here, the launch side in
// launch_hook.cpp, what both use in hook_calls.cpp.
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"

#include "actors/lifecycle_hooks/group_retention.hpp"
#include "actors/lifecycle_hooks/hook_calls.hpp"
#include "actors/lifecycle_hooks/launch_hook.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/aws/autoscaling_failure.hpp"
#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// The API may show InService or Terminating for a while after the metadata said
// Terminated. The first this many looks come quickly; later ones back off, and last as long
// as the group's terminate hook could still wait (its heartbeat timeout since the first).
constexpr std::uint32_t not_yet_looks_max = 20;
// The bound on a lookup that keeps failing (the Auto Scaling endpoint unreachable,
// throttled, 5xx): a terminate hook nobody heartbeats ends at its heartbeat timeout, at most
// 7200 s (PutLifecycleHook, HeartbeatTimeout), so past that no hook can wait any more.
constexpr std::chrono::seconds lookup_failing_max{7200};

void look_up(hooks_pointer self);

// The look is over; without a hook handed over the warden hears that none waits, so that
// its drain need not wait for one.
void settle(hooks_pointer self, const std::string& why, bool as_error = false,
            bool hook_found = false) {
  auto& state = self->state;
  state.looking = false;
  state.settled = true;
  if (as_error)
    warden_logger()->error("lifecycle hooks: {}", why);
  else
    warden_logger()->info("lifecycle hooks: {}", why);
  if (!hook_found) self->send(state.wiring.warden, lifecycle_lookup_ended{why});
}

void lookup_failed(hooks_pointer self, const autoscaling_failure& failure) {
  if (!retrying_can_help(failure.kind))
    return settle(self,
                  failure.description +
                      "; the drain goes on without answering a hook, "
                      "which then ends at its timeout",
                  true);
  auto& state = self->state;
  if (!state.failing_since) state.failing_since = now_of(self);
  if (now_of(self) - *state.failing_since >= lookup_failing_max)
    return settle(self,
                  failure.description +
                      "; given up after 2h of failed lookups, longer "
                      "than any terminate hook waits (its heartbeat "
                      "timeout is at most 7200 s)",
                  true);
  const auto wait = backoff(self, ++self->state.lookups_failed);
  warden_logger()->warn("lifecycle hooks: {}; looking again in {} ms", failure.description,
                        std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
  run_later(self, wait, [=] { look_up(self); });
}

void hand_over(hooks_pointer self, const lifecycle_hook& hook) {
  auto& state = self->state;
  auto action = lifecycle_action_for(hook, now_of(self), state.wiring.seen_late_by);
  settle(self,
         "hook " + hook.hook_name + " of group " + hook.group_name +
             " waits for this instance (heartbeat timeout " +
             std::to_string(hook.heartbeat_timeout.count()) + " s)",
         false, true);
  // The hook has waited since before the metadata said so: its heartbeat clock restarts now,
  // before the group's policy is read, so that the read takes nothing from the hook.
  record_heartbeat(self, hook.hook_name);
  read_group_retention(self, hook, [=](bool retained) mutable {
    action.retained_when_abandoned = retained;
    self->send(self->state.wiring.warden, lifecycle_action_pending{action});
  });
}

// The API still lags after the quick looks: a terminate hook, if the group has one, waits
// for this instance from the moment the metadata said so, and gives up its heartbeat
// timeout later. Until then the instance may still turn up in Terminating:Wait.
void look_past_the_lag(hooks_pointer self, const std::string& lifecycle_state,
                       const failure_handler& failed) {
  read_hook(
      self, terminating_transition, self->state.wiring.hook_name, "aws.lifecycle_hook",
      [=](const hook_choice& choice) {
        auto& state = self->state;
        if (!choice.problem.empty()) return settle(self, choice.problem, true);
        if (!choice.hook)
          return settle(self, "group " + *state.group_name + " has no terminate hook to answer");
        const auto waited = now_of(self) - state.not_yet_since.value_or(now_of(self));
        if (waited >= choice.hook->heartbeat_timeout)
          return settle(self, "the instance stays " + lifecycle_state + " past hook " +
                                  choice.hook->hook_name + "'s heartbeat timeout: no hook waits");
        run_later(self, backoff(self, state.lookups_failed - not_yet_looks_max),
                  [=] { look_up(self); });
      },
      failed);
}

void read_terminate_hook(hooks_pointer self, const failure_handler& failed) {
  read_hook(
      self, terminating_transition, self->state.wiring.hook_name, "aws.lifecycle_hook",
      [=](const hook_choice& choice) {
        if (choice.hook) return hand_over(self, *choice.hook);
        if (!choice.problem.empty()) return settle(self, choice.problem, true);
        settle(self, "group " + *self->state.group_name + " has no terminate hook to answer");
      },
      failed);
}

void look_up(hooks_pointer self) {
  const failure_handler failed = [=](const autoscaling_failure& f) { lookup_failed(self, f); };
  // Once seen waiting, an instance waits until its hook is answered or times out, and the
  // completion tells which: a retry reads only what failed, so that under throttling the
  // lookup needs one call to get through at a time, not two in the same round.
  if (self->state.seen_waiting) return read_terminate_hook(self, failed);
  read_instance(
      self,
      [=](const std::string& lifecycle_state) {
        auto& state = self->state;
        switch (terminate_wait_of(lifecycle_state)) {
          case terminate_wait::waiting:
            state.seen_waiting = true;
            return read_terminate_hook(self, failed);
          case terminate_wait::not_yet:
            if (!state.not_yet_since) state.not_yet_since = now_of(self);
            if (++state.lookups_failed <= not_yet_looks_max)
              return run_later(self, state.wiring.retry_initial, [=] { look_up(self); });
            return look_past_the_lag(self, lifecycle_state, failed);
          case terminate_wait::past:
            return settle(self, "the instance is " + lifecycle_state +
                                    ": its terminate hooks are answered or timed out");
          case terminate_wait::not_leaving:
            return settle(self,
                          "the instance is " + lifecycle_state + ": no terminate hook applies");
          // Its hook is past, but the drain still completes it: the completion finds no
          // active action and terminates the retained instance once the runner is gone.
          case terminate_wait::retained:
            return read_terminate_hook(self, failed);
        }
      },
      failed);
}

void start_looking(hooks_pointer self) {
  auto& state = self->state;
  if (state.looking || state.settled) return;
  state.looking = true;
  look_up(self);
}

void complete_for_warden(hooks_pointer self, const std::string& hook_name,
                         lifecycle_result result) {
  const auto answer = result == lifecycle_result::proceed ? lifecycle_action_result::proceed
                                                          : lifecycle_action_result::abandon;
  const auto warden = self->state.wiring.warden;
  complete_hook(self, hook_name, answer, [=](bool confirmed, const std::string& detail) {
    self->send(warden, lifecycle_action_completed{confirmed, detail, self->state.retained});
  });
}

}  // namespace

lifecycle_hooks_implementation::behavior_type lifecycle_hooks_behavior(
    hooks_pointer self, lifecycle_hooks_wiring wiring) {
  RUNWARDEN_ASSERT(wiring.autoscaling_client);
  RUNWARDEN_ASSERT(wiring.warden);
  auto& state = self->state;
  state.random_state = wiring.random_seed;
  state.wiring = std::move(wiring);
  self->send(state.wiring.warden, subscribe_atom::value, status_subscriber_actor{self});
  watch_launch(self);
  return {
      [=](const lifecycle_trigger& trigger) {
        if (calls_for_lifecycle_lookup(trigger.source)) start_looking(self);
      },
      // A (re)started hooks actor re-derives its work from the warden: a drain the cloud
      // called for whose hook is not known yet is looked up.
      [=](const warden_snapshot& snapshot) {
        self->state.last_snapshot = snapshot;
        if (snapshot.status == warden_status::shutting_down && snapshot.trigger &&
            calls_for_lifecycle_lookup(*snapshot.trigger) && !snapshot.lifecycle_hook)
          start_looking(self);
        launch_snapshot(self, snapshot);
      },
      [=](heartbeat_atom, const std::string& hook_name) { record_heartbeat(self, hook_name); },
      [=](complete_atom, const std::string& hook_name, lifecycle_result result) {
        complete_for_warden(self, hook_name, result);
      },
      [=](run_later_atom, std::uint64_t id) { on_run_later(self, id); },
      // Never for the warden's own workers: it keeps room for them (internal_subscribers_max).
      [=](refused_atom) {
        warden_logger()->error(
            "lifecycle hooks: the warden refused the status subscription; "
            "a restarted hooks actor cannot find a hook still to be found");
      },
  };
}

}  // namespace runwarden
