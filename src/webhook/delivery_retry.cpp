// See delivery_retry.hpp. The status classes are decided first, the budget second, so that
// a permanent refusal says why even on the last attempt.
#include "src/webhook/delivery_retry.hpp"

#include <algorithm>

#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

enum class answer_class : std::uint8_t { success, permanent, transient };

answer_class classify(std::optional<int> status_code) {
  if (!status_code) return answer_class::transient;
  const int code = *status_code;
  if (code >= 200 && code < 300) return answer_class::success;
  if (code == 408 || code == 429) return answer_class::transient;
  if (code >= 300 && code < 500) return answer_class::permanent;
  return answer_class::transient;  // 5xx, and anything outside the classes HTTP defines
}

std::string permanent_reason(int code) {
  const auto status = "HTTP " + std::to_string(code);
  if (code < 400) return status + ": redirects are not followed, so retrying cannot help";
  return status + ": the receiver refused the request itself, so retrying cannot help";
}

std::string transient_reason(std::optional<int> status_code) {
  if (!status_code) return "no answer";
  if (*status_code == 408 || *status_code == 429)
    return "HTTP " + std::to_string(*status_code) + ": the receiver asks to try again later";
  return "HTTP " + std::to_string(*status_code);
}

}  // namespace

delivery_limits delivery_limits_of(const webhook_settings& settings) {
  return {settings.retry_initial, settings.retry_max,
          std::max<std::uint32_t>(1, settings.attempts_max)};
}

std::chrono::nanoseconds retry_delay(const delivery_limits& limits, std::uint32_t attempts_made,
                                     double unit_random) {
  return capped_backoff(limits.retry_initial, limits.retry_max, attempts_made, delivery_jitter,
                        unit_random);
}

std::chrono::nanoseconds delivery_time_max(const delivery_limits& limits,
                                           std::chrono::milliseconds timeout) {
  std::chrono::nanoseconds total = 2 * timeout * limits.attempts_max;
  for (std::uint32_t attempts = 1; attempts < limits.attempts_max; ++attempts)
    total += retry_delay(limits, attempts, 0.0);
  return total;
}

delivery_decision decide_after_attempt(const delivery_limits& limits, std::uint32_t attempts_made,
                                       std::optional<int> status_code,
                                       std::uint64_t& random_state) {
  RUNWARDEN_ASSERT(attempts_made >= 1 && attempts_made <= limits.attempts_max);
  switch (classify(status_code)) {
    case answer_class::success:
      return {delivery_verdict::delivered, {}, "HTTP " + std::to_string(*status_code)};
    case answer_class::permanent:
      return {delivery_verdict::give_up, {}, permanent_reason(*status_code)};
    case answer_class::transient:
      break;
  }
  const auto reason = transient_reason(status_code);
  if (attempts_made >= limits.attempts_max)
    return {
        delivery_verdict::give_up,
        {},
        reason + "; gave up after " + std::to_string(attempts_made) + " attempts (attempts_max)"};
  const auto delay = retry_delay(limits, attempts_made, next_unit_random(random_state));
  return {delivery_verdict::retry, delay, reason + "; retrying"};
}

}  // namespace runwarden
