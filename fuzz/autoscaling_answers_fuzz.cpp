// libFuzzer target for the Auto Scaling Describe* answers (pugixml, then the fields read).
// The same bytes go to all three readers, whose documents share their envelope. An answer
// is items or an error, never both: a half-read group must not become a scaling decision.
#include "fuzz/fuzz_promise.hpp"
#include "src/aws/autoscaling_answers.hpp"

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
    fuzz::require(hook.heartbeat_timeout.count() >= 0);
    fuzz::require(hook.global_timeout.count() >= 0);
  }
  const auto groups = parse_describe_auto_scaling_groups(body);
  check(groups);
  return 0;
}
