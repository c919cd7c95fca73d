// See retained_instance.hpp.
#include "actors/lifecycle_hooks/retained_instance.hpp"

#include "src/aws/instance_retention.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

bool final_failure(const autoscaling_failure& failure) {
  return failure.kind == autoscaling_failure_kind::access_denied ||
         failure.kind == autoscaling_failure_kind::failed;
}

// Asked again with backoff after `failure` unless it is final, then `final_then` runs.
void again_or(hooks_pointer self, const autoscaling_failure& failure, const std::string& doing,
              std::function<void()> again, std::function<void()> final_then) {
  if (final_failure(failure)) return final_then();
  const auto wait = backoff(self, ++self->state.completions_failed);
  warden_logger()->warn("lifecycle hooks: {}: {}; again in {} ms", doing, failure.description,
                        std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
  run_later(self, wait, std::move(again));
}

void terminate_retained(hooks_pointer self, const completion_done& done) {
  call(self, terminate_retained_instance(*self->state.instance_id),
       [=](const autoscaling_outcome& outcome) {
         if (outcome.succeeded) {
           self->state.completions_failed = 0;
           const std::string detail =
               "the group retained this instance (" + self->state.lifecycle_state +
               "); TerminateInstanceInAutoScalingGroup accepted, the desired capacity kept";
           warden_logger()->info("lifecycle hooks: {}", detail);
           return done(true, detail);
         }
         again_or(
             self, outcome.failure, "terminating the retained instance",
             [=] { terminate_retained(self, done); },
             [=] {
               done(false, "the group retains this instance and keeps billing it: " +
                               outcome.failure.description);
             });
       });
}

}  // namespace

void note_retention(hooks_pointer self, const std::string& lifecycle_state) {
  auto& state = self->state;
  if (state.retained || !is_retained_state(lifecycle_state)) return;
  state.retained = true;
  warden_logger()->warn(
      "lifecycle hooks: the instance is {}: its terminate hook was abandoned and the group "
      "retains it; runwarden terminates it once the runner is gone",
      lifecycle_state);
}

void end_if_retained(hooks_pointer self, const std::string& detail, completion_done done) {
  read_instance(
      self,
      [=](const std::string&) {
        if (!self->state.retained) return done(true, detail);
        terminate_retained(self, done);
      },
      [=](const autoscaling_failure& failure) {
        again_or(
            self, failure, "reading the instance after its hook ended",
            [=] { end_if_retained(self, detail, done); },
            [=] { done(true, detail + "; the instance's state could not be read"); });
      });
}

}  // namespace runwarden
