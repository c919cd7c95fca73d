// libFuzzer target for the Auto Scaling Describe* answers (pugixml, then the fields read).
// The same bytes go to all three readers, whose documents share their envelope. An answer
// is items or an error, never both: a half-read group must not become a scaling decision.
// A hook read becomes a lifecycle action whose end lies within AWS's 48 hours, whatever its
// timeouts say (a hundred heartbeat timeouts once overflowed the nanoseconds it is counted in).
// The same bytes read as a group's retention trigger (retention_policy.hpp).
#include "fuzz/fuzz_promise.hpp"
#include "src/aws/autoscaling_answers.hpp"
#include "src/aws/lifecycle_hook_choice.hpp"
#include "src/aws/retention_policy.hpp"
#include "src/util/time_bounds.hpp"

namespace {

template <typename item>
void check(const runwarden::describe_answer<item>& answer) {
  if (!answer.error.empty()) {
    runwarden::fuzz::require(answer.items.empty());
    runwarden::fuzz::require(!answer.next_token);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const std::string_view body = fuzz::as_text(data, size);
  check(parse_describe_auto_scaling_instances(body));
  const auto hooks = parse_describe_lifecycle_hooks(body);
  check(hooks);
  for (const lifecycle_hook& hook : hooks.items) {
    fuzz::require(hook.heartbeat_timeout.count() > 0 && hook.heartbeat_timeout <= duration_max);
    fuzz::require(hook.global_timeout.count() >= 0 && hook.global_timeout <= duration_max);
    const instant now{std::chrono::hours{24 * 365}};
    const lifecycle_action action = lifecycle_action_for(hook, now, duration::zero());
    fuzz::require(action.expires_at > now && action.expires_at - now <= lifecycle_action_hours_max);
  }
  const auto groups = parse_describe_auto_scaling_groups(body);
  check(groups);
  for (const auto& group : groups.items)
    fuzz::require(group.min_size >= 0 && group.max_size >= 0 && group.desired_capacity >= 0);
  // The retention trigger: read or an error, never both (an error keeps the hook's deadline).
  const auto retention = parse_retention_on_abandon(body, "runners");
  fuzz::require(retention.error.empty() == retention.on_abandon.has_value());
  return 0;
}
