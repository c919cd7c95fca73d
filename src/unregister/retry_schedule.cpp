// See retry_schedule.hpp. The wait is chosen in one place, in the order the header gives, so
// that every kind of outcome honours a server's Retry-After the same way.
#include "src/unregister/retry_schedule.hpp"

#include <algorithm>

#include "src/util/assert.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/duration_text.hpp"
#include "src/util/seeded_random.hpp"

namespace runwarden {

namespace {

using std::chrono::nanoseconds;

nanoseconds backoff(const unregister_retry_limits& limits, std::uint32_t attempts_made,
                    std::uint64_t& random_state) {
  return capped_backoff(limits.retry_initial, limits.retry_max, attempts_made, unregister_jitter,
                        next_unit_random(random_state));
}

nanoseconds wait_before_retry(const unregister_retry_limits& limits,
                              const unregister_outcome& outcome, std::uint32_t attempts_made,
                              std::chrono::system_clock::time_point now,
                              std::uint64_t& random_state) {
  if (outcome.retry_after) return std::min<nanoseconds>(*outcome.retry_after, server_wait_max);
  if (outcome.reset_at && *outcome.reset_at > now)
    return std::min<nanoseconds>(*outcome.reset_at - now, server_wait_max);
  const nanoseconds delay = backoff(limits, attempts_made, random_state);
  if (outcome.kind == outcome_kind::rate_limited)
    return std::max<nanoseconds>(delay, rate_limit_wait_min);
  return delay;
}

std::string wait_text(nanoseconds delay) {
  return format_duration(std::chrono::ceil<std::chrono::milliseconds>(delay));
}

}  // namespace

unregister_decision decide_after_outcome(const unregister_retry_limits& limits,
                                         const unregister_outcome& outcome,
                                         std::uint32_t attempts_made,
                                         std::chrono::system_clock::time_point now,
                                         std::uint64_t& random_state) {
  RUNWARDEN_ASSERT(attempts_made >= 1);
  RUNWARDEN_ASSERT(limits.retry_initial.count() > 0);
  if (is_done(outcome.kind)) return {unregister_verdict::done, {}, outcome.text};
  if (limits.attempts_max != 0 && attempts_made >= limits.attempts_max)
    return {unregister_verdict::give_up,
            {},
            outcome.text + "; gave up after " + std::to_string(attempts_made) +
                " attempts (attempts_max)"};
  const nanoseconds delay = wait_before_retry(limits, outcome, attempts_made, now, random_state);
  RUNWARDEN_ASSERT(delay.count() >= 0);
  return {unregister_verdict::retry, delay, outcome.text + "; next attempt in " + wait_text(delay)};
}

}  // namespace runwarden
