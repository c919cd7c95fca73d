// See lifecycle_hooks_actor.hpp.
#include "actors/lifecycle_hooks/lifecycle_hooks_actor.hpp"

#include <cassert>
#include <functional>

#include "messages/autoscaling_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/app/logging.hpp"
#include "src/aws/autoscaling_answers.hpp"
#include "src/aws/lifecycle_hook_choice.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

using hooks_pointer = caf::stateful_actor<lifecycle_hooks_state>*;
using look_again_atom = caf::atom_constant<caf::atom("hooklook")>;
using complete_again_atom = caf::atom_constant<caf::atom("hookdone")>;

// The API may show InService or Terminating for a moment after the metadata said
// Terminated; past this many looks the instance is taken to have no hook waiting.
constexpr std::uint32_t not_yet_looks_max = 20;
// The client gives up on an answer past the budget; this margin covers its last attempt.
constexpr std::chrono::seconds client_answer_margin{30};
constexpr double retry_jitter = 0.5;

instant now_of(hooks_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

std::chrono::nanoseconds backoff(hooks_pointer self, std::uint32_t failures) {
  auto& state = self->state;
  return capped_backoff(state.wiring.retry_initial, state.wiring.retry_max, failures,
                        retry_jitter, next_unit_random(state.random_state));
}

// One call through the client; `on_outcome` sees the outcome, a lost answer as `failed`.
void call(hooks_pointer self, autoscaling_call request,
          std::function<void(const autoscaling_outcome&)> on_outcome) {
  const auto budget = self->state.wiring.call_budget;
  const auto action = request.action;
  self->request(self->state.wiring.autoscaling_client, budget + client_answer_margin,
                autoscaling_call_atom::value, std::move(request), budget)
      .then([=](const autoscaling_outcome& outcome) { on_outcome(outcome); },
            [=](caf::error& error) {
              on_outcome({action, false, {}, {autoscaling_failure_kind::retry_with_backoff, {},
                                               action + ": no answer from the Auto Scaling "
                                                        "client: " + self->system().render(error)},
                          0});
            });
}

void look_again_later(hooks_pointer self, std::chrono::nanoseconds wait) {
  self->delayed_send(self, wait, look_again_atom::value);
}

void lookup_failed(hooks_pointer self, const autoscaling_failure& failure) {
  auto& state = self->state;
  if (failure.kind == autoscaling_failure_kind::access_denied ||
      failure.kind == autoscaling_failure_kind::failed) {
    warden_logger()->error("lifecycle hooks: {}; the drain goes on without answering a hook, "
                           "which then ends at its timeout", failure.description);
    state.looking = false;
    state.settled = true;
    return;
  }
  const auto wait = backoff(self, ++state.lookups_failed);
  warden_logger()->warn("lifecycle hooks: {}; looking again in {} ms", failure.description,
                        std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
  look_again_later(self, wait);
}

void settle(hooks_pointer self, const std::string& why, bool as_error = false) {
  auto& state = self->state;
  state.looking = false;
  state.settled = true;
  if (as_error)
    warden_logger()->error("lifecycle hooks: {}", why);
  else
    warden_logger()->info("lifecycle hooks: {}", why);
}

void hand_over(hooks_pointer self, const lifecycle_hook& hook) {
  auto& state = self->state;
  const auto action = lifecycle_action_for(hook, now_of(self), state.wiring.seen_late_by);
  settle(self, "hook " + hook.hook_name + " of group " + hook.group_name +
                   " waits for this instance (heartbeat timeout " +
                   std::to_string(hook.heartbeat_timeout.count()) + " s)");
  // The hook has waited since before the metadata said so: its heartbeat clock restarts now.
  call(self, record_lifecycle_action_heartbeat({hook.hook_name, *state.group_name,
                                                *state.instance_id, std::nullopt}),
       [](const autoscaling_outcome&) {});
  self->send(state.wiring.warden, lifecycle_action_pending{action});
}

void read_hooks(hooks_pointer self) {
  call(self, describe_lifecycle_hooks(*self->state.group_name),
       [=](const autoscaling_outcome& outcome) {
         if (!outcome.succeeded) return lookup_failed(self, outcome.failure);
         const auto answer = parse_describe_lifecycle_hooks(outcome.body);
         if (!answer.error.empty())
           return lookup_failed(self, {autoscaling_failure_kind::retry_with_backoff, {},
                                       answer.error});
         const auto choice = choose_terminate_hook(answer.items, self->state.wiring.hook_name);
         if (choice.hook) return hand_over(self, *choice.hook);
         if (!choice.problem.empty()) return settle(self, choice.problem, true);
         settle(self, "group " + *self->state.group_name + " has no terminate hook to answer");
       });
}

using failure_handler = std::function<void(const autoscaling_failure&)>;

// Finds this instance's group (once) and where it stands, then runs `next` with its state.
void read_instance(hooks_pointer self, std::function<void(const std::string&)> next,
                   failure_handler failed) {
  const auto id = *self->state.instance_id;
  call(self, describe_auto_scaling_instances({id}), [=](const autoscaling_outcome& outcome) {
    if (!outcome.succeeded) return failed(outcome.failure);
    const auto answer = parse_describe_auto_scaling_instances(outcome.body);
    if (!answer.error.empty())
      return failed({autoscaling_failure_kind::retry_with_backoff, {}, answer.error});
    if (answer.items.empty())
      return failed({autoscaling_failure_kind::failed, {},
                     "instance " + id + " is in no Auto Scaling group"});
    self->state.group_name = answer.items.front().group_name;
    next(answer.items.front().lifecycle_state);
  });
}

void with_instance_id(hooks_pointer self, std::function<void()> next, failure_handler failed) {
  if (self->state.instance_id) return next();
  self->request(self->state.wiring.autoscaling_client, client_answer_margin, identity_atom::value)
      .then(
          [=](const instance_identity& identity) {
            self->state.instance_id = identity.instance_id;
            next();
          },
          [=](caf::error& error) {
            failed({autoscaling_failure_kind::retry_with_backoff, {},
                    "the instance identity: " + self->system().render(error)});
          });
}

void look_up(hooks_pointer self) {
  const failure_handler failed = [=](const autoscaling_failure& failure) {
    lookup_failed(self, failure);
  };
  with_instance_id(self, [=] {
    read_instance(self, [=](const std::string& lifecycle_state) {
      auto& state = self->state;
      switch (terminate_wait_of(lifecycle_state)) {
        case terminate_wait::waiting: return read_hooks(self);
        case terminate_wait::not_yet:
          if (++state.lookups_failed <= not_yet_looks_max)
            return look_again_later(self, state.wiring.retry_initial);
          return settle(self, "the instance stays " + lifecycle_state + ": no hook waits");
        case terminate_wait::past:
          return settle(self, "the instance is " + lifecycle_state +
                                  ": its terminate hooks are answered or timed out");
        case terminate_wait::not_leaving:
          return settle(self, "the instance is " + lifecycle_state + ": no terminate hook applies");
      }
    }, failed);
  }, failed);
}

void start_looking(hooks_pointer self) {
  auto& state = self->state;
  if (state.looking || state.settled) return;
  state.looking = true;
  look_up(self);
}

void complete(hooks_pointer self, const std::string& hook_name, lifecycle_result result);

void completion_failed(hooks_pointer self, const std::string& hook_name,
                       lifecycle_result result, const autoscaling_failure& failure) {
  auto& state = self->state;
  switch (failure.kind) {
    case autoscaling_failure_kind::already_done:
      self->send(state.wiring.warden, lifecycle_action_completed{true, failure.description});
      return;
    case autoscaling_failure_kind::access_denied:
    case autoscaling_failure_kind::failed:
      self->send(state.wiring.warden, lifecycle_action_completed{false, failure.description});
      return;
    default: break;
  }
  const auto wait = backoff(self, ++state.completions_failed);
  warden_logger()->warn("lifecycle hooks: completing {}: {}; again in {} ms", hook_name,
                        failure.description,
                        std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
  self->delayed_send(self, wait, complete_again_atom::value, hook_name, result);
}

void complete(hooks_pointer self, const std::string& hook_name, lifecycle_result result) {
  auto& state = self->state;
  if (!state.instance_id || !state.group_name) {
    // A restarted hooks actor learns its instance and group again first.
    const failure_handler failed = [=](const autoscaling_failure& failure) {
      completion_failed(self, hook_name, result, failure);
    };
    return with_instance_id(self, [=] {
      read_instance(self, [=](const std::string&) { complete(self, hook_name, result); }, failed);
    }, failed);
  }
  const auto answer = result == lifecycle_result::proceed ? lifecycle_action_result::proceed
                                                          : lifecycle_action_result::abandon;
  call(self, complete_lifecycle_action_call({hook_name, *state.group_name, *state.instance_id,
                                        std::nullopt}, answer),
       [=](const autoscaling_outcome& outcome) {
         if (!outcome.succeeded) return completion_failed(self, hook_name, result, outcome.failure);
         self->send(self->state.wiring.warden,
                    lifecycle_action_completed{true, "CompleteLifecycleAction " +
                                                         std::string{to_string(result)} +
                                                         " accepted for " + hook_name});
       });
}

void heartbeat(hooks_pointer self, const std::string& hook_name) {
  auto& state = self->state;
  if (!state.instance_id || !state.group_name) return;  // the next one comes after a lookup
  call(self, record_lifecycle_action_heartbeat({hook_name, *state.group_name, *state.instance_id,
                                                std::nullopt}),
       [=](const autoscaling_outcome& outcome) {
         if (outcome.succeeded) {
           warden_logger()->debug("lifecycle hooks: heartbeat recorded for {}", hook_name);
         } else {
           warden_logger()->warn("lifecycle hooks: heartbeat for {}: {}", hook_name,
                                 outcome.failure.description);
         }
       });
}

}  // namespace

caf::behavior lifecycle_hooks_actor(caf::stateful_actor<lifecycle_hooks_state>* self,
                                    lifecycle_hooks_wiring wiring) {
  assert(wiring.autoscaling_client);
  assert(wiring.warden);
  auto& state = self->state;
  state.random_state = wiring.random_seed;
  state.wiring = std::move(wiring);
  self->send(state.wiring.warden, subscribe_atom::value, caf::actor_cast<caf::actor>(self));
  return {
      [=](const lifecycle_trigger& trigger) {
        if (trigger.source == trigger_source::cloud_lifecycle) start_looking(self);
      },
      // A (re)started hooks actor re-derives its work from the warden: a drain the cloud
      // called for whose hook is not known yet is looked up.
      [=](const warden_snapshot& snapshot) {
        if (snapshot.status == warden_status::shutting_down &&
            snapshot.trigger == trigger_source::cloud_lifecycle && !snapshot.lifecycle_hook)
          start_looking(self);
      },
      [=](look_again_atom) {
        if (self->state.looking) look_up(self);
      },
      [=](heartbeat_atom, const std::string& hook_name) { heartbeat(self, hook_name); },
      [=](complete_atom, const std::string& hook_name, lifecycle_result result) {
        complete(self, hook_name, result);
      },
      [=](complete_again_atom, const std::string& hook_name, lifecycle_result result) {
        complete(self, hook_name, result);
      },
  };
}

}  // namespace runwarden
