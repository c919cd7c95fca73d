// See hook_calls.hpp.
#include "actors/lifecycle_hooks/hook_calls.hpp"

#include "actors/lifecycle_hooks/retained_instance.hpp"

#include "messages/lifecycle_messages.hpp"
#include "src/aws/autoscaling_answers.hpp"
#include "src/aws/autoscaling_failure.hpp"
#include "src/logging/logging.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

// The client gives up on an answer past the budget; this margin covers its last attempt.
constexpr std::chrono::seconds client_answer_margin{30};
constexpr double retry_jitter = 0.5;

void with_instance_id(hooks_pointer self, std::function<void()> next, failure_handler failed) {
  if (self->state.instance_id) return next();
  self->request(self->state.wiring.autoscaling_client, client_answer_margin, identity_atom::value)
      .then(
          [=](const instance_identity& identity) {
            self->state.instance_id = identity.instance_id;
            next();
          },
          [=](caf::error& error) {
            failed({autoscaling_failure_kind::retry_with_backoff,
                    {},
                    "the instance identity: " + self->system().render(error)});
          });
}

}  // namespace

instant now_of(hooks_pointer self) {
  return std::chrono::duration_cast<instant>(self->clock().now().time_since_epoch());
}

std::chrono::nanoseconds backoff(hooks_pointer self, std::uint32_t failures) {
  auto& state = self->state;
  return capped_backoff(state.wiring.retry_initial, state.wiring.retry_max, failures, retry_jitter,
                        next_unit_random(state.random_state));
}

void call(hooks_pointer self, autoscaling_call request, outcome_handler on_outcome) {
  const auto budget = self->state.wiring.call_budget;
  const auto action = request.action;
  self->request(self->state.wiring.autoscaling_client, budget + client_answer_margin,
                autoscaling_call_atom::value, std::move(request), budget)
      .then([=](const autoscaling_outcome& outcome) { on_outcome(outcome); },
            [=](caf::error& error) {
              on_outcome({action,
                          false,
                          {},
                          {autoscaling_failure_kind::retry_with_backoff,
                           {},
                           action +
                               ": no answer from the Auto Scaling "
                               "client: " +
                               self->system().render(error)},
                          0});
            });
}

void read_instance(hooks_pointer self, std::function<void(const std::string&)> next,
                   failure_handler failed) {
  with_instance_id(
      self,
      [=] {
        const auto id = *self->state.instance_id;
        call(self, describe_auto_scaling_instances({id}), [=](const autoscaling_outcome& outcome) {
          if (!outcome.succeeded) return failed(outcome.failure);
          const auto answer = parse_describe_auto_scaling_instances(outcome.body);
          if (!answer.error.empty())
            return failed({autoscaling_failure_kind::retry_with_backoff, {}, answer.error});
          if (answer.items.empty()) return next(std::string{not_in_a_group});
          const auto& found = answer.items.front();
          auto& state = self->state;
          if (state.group_name != found.group_name ||
              state.lifecycle_state != found.lifecycle_state) {
            state.group_name = found.group_name;
            state.lifecycle_state = found.lifecycle_state;
            self->send(state.wiring.warden,
                       instance_group{id, *state.group_name, found.lifecycle_state});
          }
          note_retention(self, found.lifecycle_state);
          next(found.lifecycle_state);
        });
      },
      failed);
}

lifecycle_action_target target_of(hooks_pointer self, const std::string& hook_name) {
  return {hook_name, *self->state.group_name, *self->state.instance_id, std::nullopt};
}

void run_later(hooks_pointer self, std::chrono::nanoseconds wait, std::function<void()> later) {
  auto& state = self->state;
  const auto id = state.next_deferred_id++;
  state.deferred.emplace(id, std::move(later));
  self->delayed_send(self, wait, run_later_atom::value, id);
}

void on_run_later(hooks_pointer self, std::uint64_t id) {
  auto& deferred = self->state.deferred;
  const auto found = deferred.find(id);
  if (found == deferred.end()) return;
  auto later = std::move(found->second);
  deferred.erase(found);
  later();
}

void read_hook(hooks_pointer self, std::string_view transition,
               const std::optional<std::string>& configured, std::string_view setting,
               std::function<void(const hook_choice&)> chosen, failure_handler failed) {
  const std::string wanted{transition}, key{setting};
  call(self, describe_lifecycle_hooks(*self->state.group_name),
       [=](const autoscaling_outcome& outcome) {
         if (!outcome.succeeded) return failed(outcome.failure);
         const auto answer = parse_describe_lifecycle_hooks(outcome.body);
         if (!answer.error.empty())
           return failed({autoscaling_failure_kind::retry_with_backoff, {}, answer.error});
         chosen(choose_hook(answer.items, wanted, configured, key));
       });
}

namespace {

void observe_completion(hooks_pointer self, completion_result result) {
  if (self->state.wiring.completion_observer) self->state.wiring.completion_observer(result);
}

}  // namespace

void complete_hook(hooks_pointer self, const std::string& hook_name, lifecycle_action_result result,
                   std::function<void(bool confirmed, const std::string& detail)> done) {
  const failure_handler failed = [=](const autoscaling_failure& failure) {
    if (failure.kind == autoscaling_failure_kind::already_done) {
      observe_completion(self, completion_result::already_done);
      // Past the hook: a group that retains the instance keeps it until it is terminated
      // (the warden has the instance end do that once gone).
      return read_retention(self, failure.description, done);
    }
    if (!retrying_can_help(failure.kind)) {
      observe_completion(self, completion_result::refused);
      return done(false, failure.description);
    }
    const auto wait = backoff(self, ++self->state.completions_failed);
    warden_logger()->warn("lifecycle hooks: completing {}: {}; again in {} ms", hook_name,
                          failure.description,
                          std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
    run_later(self, wait, [=] { complete_hook(self, hook_name, result, done); });
  };
  if (!self->state.group_name) {
    // A restarted hooks actor learns its instance and group again first.
    return read_instance(
        self,
        [=](const std::string& lifecycle_state) {
          if (!self->state.group_name) {
            observe_completion(self, completion_result::refused);
            return done(false, "the instance is " + lifecycle_state + ": no hook to complete");
          }
          complete_hook(self, hook_name, result, done);
        },
        failed);
  }
  call(self, complete_lifecycle_action_call(target_of(self, hook_name), result),
       [=](const autoscaling_outcome& outcome) {
         if (!outcome.succeeded) return failed(outcome.failure);
         self->state.completions_failed = 0;
         observe_completion(self, completion_result::completed);
         done(true,
              "CompleteLifecycleAction " +
                  std::string{result == lifecycle_action_result::proceed ? "CONTINUE" : "ABANDON"} +
                  " accepted for " + hook_name);
       });
}

namespace {

// A heartbeat that meets throttling, a 5xx or a lost answer is asked again a few times with
// backoff (well inside the half heartbeat timeout before the next one is due): under heavy
// throttling, two heartbeats lost in a row would let the hook time out while the drain goes
// on. A refusal or "no active lifecycle action" is not asked again.
constexpr std::uint32_t heartbeat_attempts_max = 5;

void record_heartbeat_attempt(hooks_pointer self, const std::string& hook_name,
                              std::uint32_t attempt) {
  call(self, record_lifecycle_action_heartbeat(target_of(self, hook_name)),
       [=](const autoscaling_outcome& outcome) {
         const auto& observer = self->state.wiring.heartbeat_observer;
         if (outcome.succeeded) {
           if (observer) observer(heartbeat_outcome::recorded);
           return warden_logger()->debug("lifecycle hooks: heartbeat recorded for {}", hook_name);
         }
         const auto kind = outcome.failure.kind;
         const bool final = !retrying_can_help(kind) || attempt >= heartbeat_attempts_max;
         warden_logger()->warn("lifecycle hooks: heartbeat for {}: {}{}", hook_name,
                               outcome.failure.description, final ? "" : "; asking again");
         if (final && observer) observer(heartbeat_outcome::failed);
         // The action ended before the drain: timed out, or abandoned by someone else. Its
         // group may retain the instance; status shows what the instance is now.
         if (kind == autoscaling_failure_kind::already_done)
           read_instance(
               self, [](const std::string&) {}, [](const autoscaling_failure&) {});
         if (!final)
           run_later(self, backoff(self, attempt),
                     [=] { record_heartbeat_attempt(self, hook_name, attempt + 1); });
       });
}

}  // namespace

void record_heartbeat(hooks_pointer self, const std::string& hook_name) {
  if (!self->state.instance_id || !self->state.group_name) return;  // none is known yet
  if (self->state.retained) return;  // no lifecycle action is left to keep alive
  record_heartbeat_attempt(self, hook_name, 1);
}

}  // namespace runwarden
