#pragma once
// When to fetch the instance role's credentials again. They are refreshed well before
// their Expiration (AWS rotates them at least five minutes ahead), so a call never signs
// with a key that dies in flight. Clocks disagree: credentials that arrive already expired
// by this machine's clock are still the newest there are, so they are used (AWS judges them
// by its clock) while an error-level report says the clock looks wrong, and the next fetch
// waits at least credentials_refetch_interval_min instead of spinning.

#include <chrono>
#include <string>

namespace runwarden {

inline constexpr std::chrono::minutes credentials_refresh_margin{5};
inline constexpr std::chrono::seconds credentials_refetch_interval_min{60};

// True once less than the margin is left (or the time is past).
bool credentials_need_refresh(std::chrono::system_clock::time_point expiration,
                              std::chrono::system_clock::time_point now);

struct fetched_credentials_review {
  std::chrono::system_clock::time_point next_refresh;
  std::string skew_error;  // set when they arrived expired: log it at error level
};

// For credentials fetched at `now`: when to fetch again, and whether the clock looks wrong.
fetched_credentials_review review_fetched_credentials(
    std::chrono::system_clock::time_point expiration, std::chrono::system_clock::time_point now);

}  // namespace runwarden
