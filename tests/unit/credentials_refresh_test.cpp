// Refreshing the instance role's credentials: refreshed once less than five minutes are
// left; fetched credentials already expired by our clock are used anyway with an error-level
// report, and the next fetch waits a minute instead of spinning.

#include <catch2/catch.hpp>

#include "src/aws/credentials_refresh.hpp"

using namespace runwarden;
using std::chrono::minutes;
using std::chrono::seconds;

namespace {
const auto noon =
    std::chrono::system_clock::time_point{std::chrono::sys_days{std::chrono::year{2024} / 5 / 1}} +
    std::chrono::hours{12};
}

TEST_CASE("credentials are refreshed once less than five minutes are left", "[aws-credentials]") {
  CHECK_FALSE(credentials_need_refresh(noon + minutes{6}, noon));
  CHECK_FALSE(credentials_need_refresh(noon + minutes{5}, noon));
  CHECK(credentials_need_refresh(noon + minutes{5} - seconds{1}, noon));
  CHECK(credentials_need_refresh(noon - minutes{1}, noon));
}

TEST_CASE("fresh credentials are fetched again five minutes before they expire",
          "[aws-credentials]") {
  const auto review = review_fetched_credentials(noon + std::chrono::hours{6}, noon);
  CHECK(review.next_refresh == noon + std::chrono::hours{6} - minutes{5});
  CHECK(review.skew_error.empty());
}

TEST_CASE("credentials close to expiry are not fetched again in a loop", "[aws-credentials]") {
  const auto review = review_fetched_credentials(noon + minutes{2}, noon);
  CHECK(review.next_refresh == noon + seconds{60});
  CHECK(review.skew_error.empty());
}

TEST_CASE("credentials that arrive expired are reported and used once", "[aws-credentials]") {
  const auto review = review_fetched_credentials(noon - minutes{3}, noon);
  CHECK(review.next_refresh == noon + seconds{60});
  CHECK(review.skew_error ==
        "the instance role credentials fetched just now expired at 2024-05-01T11:57:00.000Z, "
        "180 s before this machine's clock (2024-05-01T12:00:00.000Z): is the clock ahead? "
        "Using them anyway; AWS judges them by its own");
}
