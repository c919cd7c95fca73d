#pragma once
// Whether a webhook delivery is done after an attempt, and if not, how long to wait before
// the next one: exponential backoff from retry_initial up to retry_max, each delay shortened
// by up to a fifth at random (so that a fleet draining at once does not retry in step),
// until a 2xx answer or attempts_max attempts. Answers that retrying cannot change (most
// 4xx, and redirects, which are never followed) end the delivery at once; 408 and 429 ask
// for a retry and get one. The random draw comes from a seeded state the caller owns.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "src/webhook/webhook_settings.hpp"

namespace runwarden {

inline constexpr double delivery_jitter = 0.2;  // fraction of each delay drawn at random

struct delivery_limits {
  std::chrono::milliseconds retry_initial{0};
  std::chrono::milliseconds retry_max{0};
  std::uint32_t attempts_max = 0;  // first attempt included; at least 1
};

delivery_limits delivery_limits_of(const webhook_settings& settings);

enum class delivery_verdict : std::uint8_t { delivered, retry, give_up };

struct delivery_decision {
  delivery_verdict verdict = delivery_verdict::give_up;
  std::chrono::nanoseconds delay{0};  // only for retry
  std::string why;                    // a sentence for the log; never the URL
};

// `attempts_made` counts the attempt just finished; `status_code` is nullopt when the
// attempt never got an answer (connection refused, timeout, failed lookup). Draws from
// `random_state` only when it decides to retry.
delivery_decision decide_after_attempt(const delivery_limits& limits, std::uint32_t attempts_made,
                                       std::optional<int> status_code, std::uint64_t& random_state);

// The wait after attempt `attempts_made` (>= 1): retry_initial * 2^(attempts_made - 1),
// capped at retry_max, then shortened by delivery_jitter * unit_random of itself.
std::chrono::nanoseconds retry_delay(const delivery_limits& limits, std::uint32_t attempts_made,
                                     double unit_random);

// The longest one delivery can take until it is delivered or given up: every attempt a
// lookup and a request each running into `timeout`, with the unshortened delays between.
// Deliveries share the HTTP port's one worker, so several slow targets add up beyond this.
std::chrono::nanoseconds delivery_time_max(const delivery_limits& limits,
                                           std::chrono::milliseconds timeout);

}  // namespace runwarden
