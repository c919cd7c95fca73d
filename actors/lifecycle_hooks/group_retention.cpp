// See group_retention.hpp.
#include "actors/lifecycle_hooks/group_retention.hpp"

#include "src/aws/retention_policy.hpp"
#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

void say_outcome(const std::string& group, const lifecycle_hook& hook, abandon_retention on_abandon,
                 bool retained) {
  if (retained)
    return warden_logger()->info(
        "lifecycle hooks: group {} retains an instance whose terminate hook is abandoned, and "
        "hook {} abandons at its timeout: the drain takes no deadline from the hook",
        group, hook.hook_name);
  if (on_abandon == abandon_retention::retain)
    return warden_logger()->warn(
        "lifecycle hooks: group {} retains an instance whose terminate hook is abandoned, but "
        "hook {}'s default result is {}: its timeout terminates the instance, so the drain "
        "keeps the hook's deadline",
        group, hook.hook_name, hook.default_result);
}

}  // namespace

void read_group_retention(hooks_pointer self, const lifecycle_hook& hook,
                          std::function<void(bool retained_when_abandoned)> next) {
  RUNWARDEN_ASSERT(self->state.group_name);
  const auto group = *self->state.group_name;
  call(self, describe_auto_scaling_groups({group}), [=](const autoscaling_outcome& outcome) {
    const auto keep_deadline = [&](const std::string& why) {
      warden_logger()->warn(
          "lifecycle hooks: whether group {} retains this instance past hook {} is unknown "
          "({}); the drain keeps the hook's deadline",
          group, hook.hook_name, why);
      next(false);
    };
    if (!outcome.succeeded) return keep_deadline(outcome.failure.description);
    const auto answer = parse_retention_on_abandon(outcome.body, group);
    if (!answer.error.empty()) return keep_deadline(answer.error);
    const bool retained = retained_when_abandoned(*answer.on_abandon, hook);
    say_outcome(group, hook, *answer.on_abandon, retained);
    next(retained);
  });
}

}  // namespace runwarden
