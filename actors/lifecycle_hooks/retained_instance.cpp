// See retained_instance.hpp.
#include "actors/lifecycle_hooks/retained_instance.hpp"

#include "src/aws/instance_retention.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

void note_retention(hooks_pointer self, const std::string& lifecycle_state) {
  auto& state = self->state;
  if (state.retained || !is_retained_state(lifecycle_state)) return;
  state.retained = true;
  warden_logger()->warn(
      "lifecycle hooks: the instance is {}: its terminate hook was abandoned and the group "
      "retains it; runwarden terminates it once the runner is gone",
      lifecycle_state);
}

void read_retention(hooks_pointer self, const std::string& detail, completion_done done) {
  read_instance(
      self,
      [=](const std::string&) {
        if (!self->state.retained) return done(true, detail);
        done(true, detail + "; the group retains this instance (" + self->state.lifecycle_state +
                       "): it is terminated once the runner is gone");
      },
      [=](const autoscaling_failure& failure) {
        if (failure.kind == autoscaling_failure_kind::access_denied ||
            failure.kind == autoscaling_failure_kind::failed)
          return done(true, detail + "; the instance's state could not be read");
        const auto wait = backoff(self, ++self->state.completions_failed);
        warden_logger()->warn(
            "lifecycle hooks: reading the instance after its hook ended: {}; again in {} ms",
            failure.description,
            std::chrono::duration_cast<std::chrono::milliseconds>(wait).count());
        run_later(self, wait, [=] { read_retention(self, detail, done); });
      });
}

}  // namespace runwarden
