#pragma once
// What follows an attempt to unregister a runner: done, another attempt after a wait, or
// (only when a budget is configured) giving up. A fixed timeout is what strands runners
// today, so by default there is no budget: the schedule retries forever, with capped
// exponential backoff and seeded jitter between attempts. A server's own wish wins over
// the backoff: Retry-After first, then its rate-limit reset time (which is why `now`, the
// wall clock, comes in), and a rate limit without either still waits at least
// rate_limit_wait_min. Pure: the same inputs and random state give the same decision.

#include <chrono>
#include <cstdint>
#include <string>

#include "src/unregister/unregister_outcome.hpp"

namespace runwarden {

inline constexpr double unregister_jitter = 0.2;  // fraction of each backoff drawn at random
inline constexpr std::chrono::seconds rate_limit_wait_min{60};
// A server asking for more than this is capped: a runner must not stay registered for days
// because of one answer's header.
inline constexpr std::chrono::hours server_wait_max{1};
static_assert(rate_limit_wait_min < server_wait_max);

struct unregister_retry_limits {
  std::chrono::milliseconds retry_initial{std::chrono::seconds{1}};
  std::chrono::milliseconds retry_max{std::chrono::minutes{5}};
  std::uint32_t attempts_max = 0;  // first attempt included; 0 means retry forever
};

enum class unregister_verdict : std::uint8_t { done, retry, give_up };

struct unregister_decision {
  unregister_verdict verdict = unregister_verdict::retry;
  std::chrono::nanoseconds delay{0};  // only for retry
  std::string report;                 // the outcome's text and what happens next
};

// `attempts_made` counts the attempt just finished (>= 1). Draws from `random_state` only
// when the wait is the schedule's own backoff.
unregister_decision decide_after_outcome(const unregister_retry_limits& limits,
                                         const unregister_outcome& outcome,
                                         std::uint32_t attempts_made,
                                         std::chrono::system_clock::time_point now,
                                         std::uint64_t& random_state);

}  // namespace runwarden
