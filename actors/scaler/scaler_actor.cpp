// See scaler_actor.hpp. A call's outcome comes back as the machine's call_succeeded or
// call_failed (a read as group_read); the machine keeps one scaling call and one protection
// call in flight at most, so the actor needs no queue of its own.
#include "actors/scaler/scaler_actor.hpp"

#include <utility>
#include <vector>

#include "messages/autoscaling_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/aws/autoscaling_answers.hpp"
#include "src/logging/logging.hpp"
#include "src/util/capped_backoff.hpp"

namespace runwarden {

namespace {

using scaler_pointer = scaler_implementation::stateful_pointer<scaler_state>;

// The client tries each attempt with its own timeout; past the budget plus this margin the
// answer is given up as lost.
constexpr std::chrono::seconds client_answer_margin{30};

instant now_of(scaler_pointer self) {
  return std::chrono::duration_cast<duration>(self->clock().now().time_since_epoch());
}

void feed(scaler_pointer self, const scaling_event& event);

void report_failure(scaler_pointer self, scaling_call call, autoscaling_failure failure) {
  if (self->state.wiring.observer.call_failed)
    self->state.wiring.observer.call_failed(call, failure.kind);
  feed(self, call_failed{call, std::move(failure)});
}

autoscaling_failure failure_of(std::string description) {
  return autoscaling_failure{autoscaling_failure_kind::failed, "", std::move(description)};
}

// Sends one call through the client; `on_body` gets the answer's body when it succeeded.
template <class body_handler>
void call(scaler_pointer self, scaling_call which, autoscaling_call request, body_handler on_body) {
  const auto budget = self->state.wiring.call_budget;
  self->request(self->state.wiring.autoscaling_client, budget + client_answer_margin,
                autoscaling_call_atom::value, std::move(request), budget)
      .then(
          [=](const autoscaling_outcome& outcome) {
            if (outcome.succeeded)
              on_body(outcome.body);
            else
              report_failure(self, which, outcome.failure);
          },
          [=](caf::error& error) {
            // No answer in time is transient, as a lost request is: counted with throttling,
            // not with refusals, in runwarden_scaling_call_failures_total.
            report_failure(
                self, which,
                {autoscaling_failure_kind::retry_with_backoff, "",
                 "no answer from the Auto Scaling client: " + self->system().render(error)});
          });
}

void call_and_report(scaler_pointer self, scaling_call which, autoscaling_call request) {
  call(self, which, std::move(request),
       [=](const std::string&) { feed(self, call_succeeded{which}); });
}

// Runs `next` once this instance's group is known, finding it first if need be.
template <class continuation>
void with_group(scaler_pointer self, scaling_call which, continuation next) {
  auto& state = self->state;
  if (state.group_name) return next();
  const std::string id = *state.instance_id;  // the machine is fed only once it is known
  call(self, which, describe_auto_scaling_instances({id}), [=](const std::string& body) {
    auto answer = parse_describe_auto_scaling_instances(body);
    if (!answer.error.empty()) return report_failure(self, which, failure_of(answer.error));
    if (answer.items.empty())
      return report_failure(self, which,
                            failure_of("instance " + id + " is in no Auto Scaling group"));
    self->state.group_name = answer.items.front().group_name;
    warden_logger()->info("scaling: instance {} is in Auto Scaling group {}", id,
                          *self->state.group_name);
    next();
  });
}

void read_group(scaler_pointer self) {
  with_group(self, scaling_call::read_group, [=] {
    const std::string name = *self->state.group_name;
    call(self, scaling_call::read_group, describe_auto_scaling_groups({name}),
         [=](const std::string& body) {
           auto answer = parse_describe_auto_scaling_groups(body);
           if (!answer.error.empty())
             return report_failure(self, scaling_call::read_group, failure_of(answer.error));
           for (const auto& group : answer.items)
             if (group.group_name == name)
               return feed(self, group_read{view_of(group, *self->state.instance_id)});
           report_failure(self, scaling_call::read_group,
                          failure_of("Auto Scaling group " + name + " was not found"));
         });
  });
}

void log_decision(const scaling_decision& decision) {
  const std::string text = to_string(decision);
  const auto* note = std::get_if<scaling_note>(&decision);
  switch (note ? note->level : report_level::info) {
    case report_level::debug:
      warden_logger()->debug("scaling: {}", text);
      break;
    case report_level::info:
      warden_logger()->info("scaling: {}", text);
      break;
    case report_level::warning:
      warden_logger()->warn("scaling: {}", text);
      break;
    case report_level::error:
      warden_logger()->error("scaling: {}", text);
      break;
  }
}

void carry_out(scaler_pointer self, const scaling_decision& decision) {
  log_decision(decision);
  const auto kind = kind_of(decision);
  if (kind && self->state.wiring.observer.decided) self->state.wiring.observer.decided(*kind);
  auto& state = self->state;
  if (std::holds_alternative<read_group_now>(decision)) {
    read_group(self);
  } else if (const auto* up = std::get_if<scale_up>(&decision)) {
    call_and_report(
        self, scaling_call::scale_up,
        set_desired_capacity(*state.group_name, up->desired_capacity, up->honor_cooldown));
  } else if (std::holds_alternative<scale_in_self>(decision)) {
    call_and_report(self, scaling_call::scale_in_self,
                    terminate_instance_in_auto_scaling_group(*state.instance_id, true));
  } else if (const auto* protect = std::get_if<protect_self>(&decision)) {
    const bool on = protect->protect;
    with_group(self, scaling_call::protect, [=] {
      call_and_report(
          self, scaling_call::protect,
          set_instance_protection({*self->state.instance_id}, *self->state.group_name, on));
    });
  }
  // hold_off and scaling_note only inform.
}

void arm(scaler_pointer self, std::optional<instant> wake_at) {
  if (!wake_at) return;
  auto& armed = self->state.wake_armed_for;
  if (armed && *armed <= *wake_at) return;  // that one fires first and the machine re-arms
  armed = *wake_at;
  self->delayed_send(self, *wake_at - now_of(self), scaler_wake_atom::value);
}

void feed(scaler_pointer self, const scaling_event& event) {
  auto result = step(self->state.machine, event, now_of(self));
  for (const auto& decision : result.decisions) carry_out(self, decision);
  arm(self, result.wake_at);
}

void ask_identity(scaler_pointer self) {
  self->request(self->state.wiring.autoscaling_client, client_answer_margin, identity_atom::value)
      .then(
          [=](const instance_identity& identity) {
            auto& state = self->state;
            state.instance_id = identity.instance_id;
            state.identity_failures = 0;
            if (state.load_before_identity) feed(self, *state.load_before_identity);
            state.load_before_identity.reset();
          },
          [=](caf::error& error) {
            auto& state = self->state;
            const auto wait =
                capped_backoff(state.wiring.policy.retry_initial, state.wiring.policy.retry_max,
                               ++state.identity_failures, 0, 0);
            warden_logger()->warn("scaling: no instance identity yet ({}); asking again in {}s",
                                  self->system().render(error),
                                  std::chrono::duration_cast<std::chrono::seconds>(wait).count());
            self->delayed_send(self, wait, scaler_identity_atom::value);
          });
}

}  // namespace

scaler_implementation::behavior_type scaler_behavior(scaler_pointer self, scaler_wiring wiring) {
  auto& state = self->state;
  state.machine = initial_scaling_state(wiring.policy, wiring.random_seed);
  state.wiring = std::move(wiring);
  ask_identity(self);
  self->send(state.wiring.warden, subscribe_atom::value, status_subscriber_actor{self});
  return {
      [=](const warden_snapshot& snapshot) {
        const load_observed load{snapshot.jobs_running, snapshot.status};
        if (self->state.instance_id)
          feed(self, load);
        else
          self->state.load_before_identity = load;  // no call can be made without it
      },
      [=](scaler_wake_atom) {
        auto& armed = self->state.wake_armed_for;
        if (armed && *armed <= now_of(self)) armed.reset();
        feed(self, scaling_tick{});
      },
      [=](scaler_identity_atom) { ask_identity(self); },
      // Only past the warden's subscriber limit, which keeps room for its own workers.
      [=](refused_atom) {
        warden_logger()->error(
            "scaling: the warden refused the status subscription; the "
            "scaler decides nothing without the runner's load");
      },
  };
}

}  // namespace runwarden
