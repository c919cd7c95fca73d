#pragma once
// Exponential backoff with a cap and a random shortening, shared by every retry loop (webhook
// deliveries, unregistration): the first wait is `initial`, each later one twice the one
// before, never more than `cap` (or `initial` when that is larger), then shortened by up to
// `jitter` of itself so that a fleet failing at once does not retry in step. Pure: the
// random draw comes from the caller.

#include <chrono>
#include <cstdint>

namespace runwarden {

// The wait after attempt `attempts_made` (>= 1): initial * 2^(attempts_made - 1), capped,
// then shortened by jitter * unit_random of itself. `jitter` and `unit_random` are in [0, 1].
std::chrono::nanoseconds capped_backoff(std::chrono::nanoseconds initial,
                                        std::chrono::nanoseconds cap, std::uint32_t attempts_made,
                                        double jitter, double unit_random);

}  // namespace runwarden
