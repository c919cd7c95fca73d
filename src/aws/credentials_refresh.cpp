// See credentials_refresh.hpp.
#include "src/aws/credentials_refresh.hpp"

#include <algorithm>

#include "src/util/rfc3339_time.hpp"

namespace runwarden {

bool credentials_need_refresh(std::chrono::system_clock::time_point expiration,
                              std::chrono::system_clock::time_point now) {
  return expiration - now < credentials_refresh_margin;
}

fetched_credentials_review review_fetched_credentials(
    std::chrono::system_clock::time_point expiration, std::chrono::system_clock::time_point now) {
  fetched_credentials_review review;
  review.next_refresh =
      std::max(expiration - credentials_refresh_margin, now + credentials_refetch_interval_min);
  if (expiration <= now) {
    const auto late = std::chrono::duration_cast<std::chrono::seconds>(now - expiration);
    review.skew_error = "the instance role credentials fetched just now expired at " +
                        format_rfc3339_utc(expiration) + ", " + std::to_string(late.count()) +
                        " s before this machine's clock (" + format_rfc3339_utc(now) +
                        "): is the clock ahead? Using them anyway; AWS judges them by its own";
  }
  return review;
}

}  // namespace runwarden
