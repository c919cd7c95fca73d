// See instance_end_actor.hpp.
#include "actors/instance_end/instance_end_actor.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "src/aws/autoscaling_answers.hpp"
#include "src/aws/autoscaling_failure.hpp"
#include "src/aws/instance_retention.hpp"
#include "src/aws/lifecycle_hook_choice.hpp"
#include "src/logging/logging.hpp"

extern char** environ;

namespace runwarden {

namespace {

using end_pointer = instance_end_implementation::stateful_pointer<instance_end_state>;
// Room for the client to answer after its budget ran out.
constexpr std::chrono::seconds client_answer_margin{10};
constexpr std::chrono::milliseconds command_poll{50};

void answer(end_pointer self, bool done, std::string detail) {
  if (done)
    warden_logger()->info("instance end: {}", detail);
  else
    warden_logger()->error("instance end: {}", detail);
  self->state.promise.deliver(instance_end_outcome{done, std::move(detail)});
}

void call(end_pointer self, autoscaling_call request,
          std::function<void(const autoscaling_outcome&)> next) {
  const auto budget = self->state.wiring.call_budget;
  const auto action = request.action;
  self->request(self->state.wiring.autoscaling_client, budget + client_answer_margin,
                autoscaling_call_atom::value, std::move(request), budget)
      .then([=](const autoscaling_outcome& outcome) { next(outcome); },
            [=](caf::error& error) {
              // No answer in time is a transient failure, as a lost request is.
              autoscaling_outcome lost{action, false, {}, {}, 0};
              lost.failure.kind = autoscaling_failure_kind::retry_with_backoff;
              lost.failure.description = action + ": no answer from the Auto Scaling client: " +
                                         self->system().render(error);
              next(lost);
            });
}

// A transient failure: `step` again after a wait doubling from hook_wait to retry_wait_max.
void retry_later(end_pointer self, const std::string& problem, std::function<void()> step) {
  auto& state = self->state;
  const auto doublings = std::min<std::uint32_t>(state.retries++, 16);
  const auto wait = std::min(std::chrono::milliseconds{state.wiring.hook_wait.count() << doublings},
                             state.wiring.retry_wait_max);
  warden_logger()->warn("instance end: {}; again in {} ms", problem, wait.count());
  state.retry_step = std::move(step);
  self->delayed_send(self, wait, retry_end_atom::value);
}

// Completes every terminate hook of the group for this instance; "no active lifecycle
// action" means the hook has not started yet (looked for again, hook_looks_max times at most)
// or was completed already. A transient failure (throttling, a 5xx, no answer) is no answer
// about the hook: it is tried again after the doubling wait and uses up none of those looks.
void look_for_hooks(end_pointer self) {
  call(self, describe_lifecycle_hooks(self->state.group_name),
       [=](const autoscaling_outcome& hooks) {
         if (!hooks.succeeded && retrying_can_help(hooks.failure.kind))
           return retry_later(self, hooks.failure.description, [=] { look_for_hooks(self); });
         if (!hooks.succeeded)
           return answer(self, true,
                         self->state.done_detail + "; the terminate hooks could not be read: " +
                             hooks.failure.description);
         ++self->state.hook_looks;
         const auto answer_hooks = parse_describe_lifecycle_hooks(hooks.body);
         auto pending = std::make_shared<std::size_t>(0);
         auto completed = std::make_shared<bool>(false);
         auto unanswered = std::make_shared<std::optional<std::string>>();
         for (const auto& hook : answer_hooks.items)
           if (hook.transition == terminating_transition) ++*pending;
         if (*pending == 0) return answer(self, true, self->state.done_detail);
         for (const auto& hook : answer_hooks.items) {
           if (hook.transition != terminating_transition) continue;
           const lifecycle_action_target target{hook.hook_name, self->state.group_name,
                                                self->state.instance_id, std::nullopt};
           call(self, complete_lifecycle_action_call(target, lifecycle_action_result::proceed),
                [=, name = hook.hook_name](const autoscaling_outcome& outcome) {
                  if (outcome.succeeded) {
                    *completed = true;
                    warden_logger()->info("instance end: terminate hook {} completed (CONTINUE)",
                                          name);
                  } else if (retrying_can_help(outcome.failure.kind)) {
                    *unanswered = outcome.failure.description;
                  }
                  if (--*pending > 0) return;
                  auto& state = self->state;
                  if (*completed) return answer(self, true, state.done_detail);
                  if (*unanswered) {
                    --state.hook_looks;
                    return retry_later(self, **unanswered, [=] { look_for_hooks(self); });
                  }
                  if (state.hook_looks >= state.wiring.hook_looks_max)
                    return answer(self, true, state.done_detail);
                  self->delayed_send(self, state.wiring.hook_wait, look_for_hook_atom::value);
                });
         }
       });
}

// The group the instance is in, for its hooks; read again after transient failures until
// it is known.
void find_group(end_pointer self) {
  call(self, describe_auto_scaling_instances({self->state.instance_id}),
       [=](const autoscaling_outcome& described) {
         auto& state = self->state;
         if (!described.succeeded && retrying_can_help(described.failure.kind))
           return retry_later(self, described.failure.description, [=] { find_group(self); });
         if (!described.succeeded) return answer(self, true, state.done_detail);
         const auto found = parse_describe_auto_scaling_instances(described.body);
         if (found.items.empty()) return answer(self, true, state.done_detail);
         state.group_name = found.items.front().group_name;
         state.hook_looks = 0;
         state.retries = 0;
         look_for_hooks(self);
       });
}

// The main call (terminate, mark unhealthy) succeeded, or failed: a transient failure is
// tried again (`again`), a refusal is the answer.
void after_main_call(end_pointer self, const autoscaling_outcome& outcome,
                     std::function<void()> again) {
  if (!outcome.succeeded && retrying_can_help(outcome.failure.kind))
    return retry_later(self, outcome.failure.description, std::move(again));
  if (!outcome.succeeded) return answer(self, false, outcome.failure.description);
  self->state.done_detail = outcome.action + " accepted for " + self->state.instance_id;
  self->state.retries = 0;
  find_group(self);
}

void terminate(end_pointer self, bool decrement) {
  const auto& id = self->state.instance_id;
  call(self, terminate_instance_in_auto_scaling_group(id, decrement),
       [=](const autoscaling_outcome& outcome) {
         const bool at_minimum = !outcome.succeeded && decrement &&
                                 outcome.failure.code == "ValidationError" &&
                                 outcome.failure.description.find("min size") != std::string::npos;
         if (!at_minimum)
           return after_main_call(self, outcome, [=] { terminate(self, decrement); });
         warden_logger()->warn(
             "instance end: the group is at its minimum size and refuses to shrink; "
             "terminating without decrementing its desired capacity (it launches a "
             "replacement)");
         terminate(self, false);
       });
}

void mark_unhealthy(end_pointer self) {
  call(self, set_instance_health(self->state.instance_id, false, false),
       [=](const autoscaling_outcome& outcome) {
         after_main_call(self, outcome, [=] { mark_unhealthy(self); });
       });
}

// The group abandoned its terminate hook already: nothing to complete after the call.
void terminate_retained(end_pointer self) {
  const auto& id = self->state.instance_id;
  call(self, terminate_retained_instance(id), [=](const autoscaling_outcome& outcome) {
    if (!outcome.succeeded && retrying_can_help(outcome.failure.kind))
      return retry_later(self, outcome.failure.description, [=] { terminate_retained(self); });
    if (!outcome.succeeded)
      return answer(
          self, false,
          "the group retains this instance and keeps billing it: " + outcome.failure.description);
    answer(self, true,
           outcome.action + " accepted for the retained instance " + self->state.instance_id +
               ", the desired capacity kept");
  });
}

// The instance id comes from IMDS, whose failures (a lost token request, a 5xx) pass: it is
// read again until it is known.
void end_on_aws(end_pointer self, const instance_end_request& request) {
  self->request(self->state.wiring.autoscaling_client, self->state.wiring.call_budget,
                identity_atom::value)
      .then(
          [=](const instance_identity& identity) {
            self->state.instance_id = identity.instance_id;
            if (request.end == instance_end::mark_unhealthy) {
              mark_unhealthy(self);
            } else if (request.retained) {
              terminate_retained(self);
            } else {
              terminate(self, request.decrement_desired_capacity);
            }
          },
          [=](caf::error& error) {
            retry_later(self, "the instance id: " + self->system().render(error),
                        [=] { end_on_aws(self, request); });
          });
}

// Runs the command without a shell and waits for it, bounded by command_timeout.
std::string run_command(const std::vector<std::string>& command,
                        std::chrono::milliseconds timeout) {
  std::vector<char*> argv;
  for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int failed = ::posix_spawn(&pid, argv.front(), nullptr, nullptr, argv.data(), environ);
  if (failed != 0) return std::string{"cannot start it: "} + std::strerror(failed);
  const auto until = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (true) {
    const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
    if (reaped == pid) break;
    if (reaped < 0 && errno != EINTR) return std::string{"waiting: "} + std::strerror(errno);
    if (std::chrono::steady_clock::now() >= until) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return "it did not end within its timeout and was killed";
    }
    std::this_thread::sleep_for(command_poll);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  return WIFEXITED(status) ? "it exited with " + std::to_string(WEXITSTATUS(status))
                           : "it was killed by signal " + std::to_string(WTERMSIG(status));
}

std::string printable(const std::vector<std::string>& command) {
  std::string text;
  for (const auto& word : command) text += (text.empty() ? "" : " ") + word;
  return text;
}

}  // namespace

instance_end_implementation::behavior_type instance_end_behavior(end_pointer self,
                                                                 instance_end_wiring wiring) {
  self->state.wiring = std::move(wiring);
  return {
      [=](end_instance_atom,
          const instance_end_request& request) -> caf::result<instance_end_outcome> {
        auto& state = self->state;
        state.promise = self->make_response_promise<instance_end_outcome>();
        if (state.asked) {
          state.promise.deliver(instance_end_outcome{false, "asked twice; ended once already"});
          return state.promise;
        }
        state.asked = true;
        warden_logger()->warn("instance end: {} ({})", to_string(request.end), request.reason);
        warden_logger()->flush();
        if (state.wiring.autoscaling_client) {
          end_on_aws(self, request);
        } else if (!state.wiring.command.empty() && state.wiring.dry_run) {
          answer(self, true, "dry run: would run " + printable(state.wiring.command));
        } else if (!state.wiring.command.empty()) {
          const auto problem = run_command(state.wiring.command, state.wiring.command_timeout);
          if (problem.empty())
            answer(self, true, printable(state.wiring.command) + " ran");
          else
            answer(self, false, printable(state.wiring.command) + ": " + problem);
        } else {
          answer(self, true,
                 "no cloud call and no runner.retire_command configured: runwarden only exits");
        }
        return state.promise;
      },
      [=](look_for_hook_atom) { look_for_hooks(self); },
      [=](retry_end_atom) {
        auto step = std::move(self->state.retry_step);
        if (step) step();
      },
  };
}

}  // namespace runwarden
