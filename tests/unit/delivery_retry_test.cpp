// The retry policy is checked with tables: the verdict for each kind of answer on an early
// and on the last attempt, the delays of a whole schedule without jitter (doubling, then
// capped), the bounds jitter must stay within, and that the same seed gives the same delays.

#include "src/webhook/delivery_retry.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

constexpr delivery_limits limits{.retry_initial = 1s, .retry_max = 30s, .attempts_max = 8};

struct verdict_row {
  std::optional<int> status_code;
  std::uint32_t attempts_made;
  delivery_verdict verdict;
  std::string why_part;
};

}  // namespace

TEST_CASE("decide_after_attempt: which answers are delivered, retried or final", "[retry]") {
  const auto row = GENERATE(values<verdict_row>({
      {200, 1, delivery_verdict::delivered, "HTTP 200"},
      {204, 8, delivery_verdict::delivered, "HTTP 204"},
      {299, 3, delivery_verdict::delivered, "HTTP 299"},
      {500, 1, delivery_verdict::retry, "HTTP 500; retrying"},
      {503, 7, delivery_verdict::retry, "HTTP 503; retrying"},
      {502, 8, delivery_verdict::give_up, "gave up after 8 attempts (attempts_max)"},
      {std::nullopt, 1, delivery_verdict::retry, "no answer; retrying"},
      {std::nullopt, 8, delivery_verdict::give_up, "gave up after 8 attempts"},
      {408, 1, delivery_verdict::retry, "HTTP 408: the receiver asks to try again later"},
      {429, 2, delivery_verdict::retry, "HTTP 429: the receiver asks to try again later"},
      {429, 8, delivery_verdict::give_up, "gave up after 8"},
      {400, 1, delivery_verdict::give_up, "HTTP 400: the receiver refused the request itself"},
      {401, 1, delivery_verdict::give_up, "retrying cannot help"},
      {404, 1, delivery_verdict::give_up, "HTTP 404: the receiver refused"},
      {410, 2, delivery_verdict::give_up, "retrying cannot help"},
      {422, 1, delivery_verdict::give_up, "retrying cannot help"},
      {301, 1, delivery_verdict::give_up, "HTTP 301: redirects are not followed"},
      {308, 1, delivery_verdict::give_up, "redirects are not followed"},
      {100, 1, delivery_verdict::retry, "HTTP 100; retrying"},
  }));
  CAPTURE(row.status_code.value_or(-1), row.attempts_made);
  std::uint64_t random_state = 42;
  const auto decision =
      decide_after_attempt(limits, row.attempts_made, row.status_code, random_state);
  CHECK(decision.verdict == row.verdict);
  CHECK_THAT(decision.why, Catch::Contains(row.why_part));
  if (row.verdict == delivery_verdict::retry) {
    CHECK(decision.delay > 0ns);
    CHECK(random_state != 42);  // a retry draws once
  } else {
    CHECK(decision.delay == 0ns);
    CHECK(random_state == 42);  // and nothing else does
  }
}

TEST_CASE("retry_delay doubles from retry_initial and stops at retry_max", "[retry]") {
  const std::vector<std::chrono::nanoseconds> expected{1s, 2s, 4s, 8s, 16s, 30s, 30s, 30s};
  for (std::uint32_t attempts = 1; attempts <= expected.size(); ++attempts) {
    CAPTURE(attempts);
    CHECK(retry_delay(limits, attempts, 0.0) == expected[attempts - 1]);
  }
  CHECK(retry_delay(limits, 1'000'000, 0.0) == 30s);
  constexpr delivery_limits odd{.retry_initial = 300ms, .retry_max = 1s, .attempts_max = 5};
  CHECK(retry_delay(odd, 1, 0.0) == 300ms);
  CHECK(retry_delay(odd, 2, 0.0) == 600ms);
  CHECK(retry_delay(odd, 3, 0.0) == 1s);
  constexpr delivery_limits inverted{.retry_initial = 5s, .retry_max = 1s, .attempts_max = 5};
  CHECK(retry_delay(inverted, 3, 0.0) == 5s);  // the initial delay is never shortened
}

TEST_CASE("jitter only shortens a delay, by at most a fifth", "[retry]") {
  const auto unit = GENERATE(0.0, 0.25, 0.5, 0.999999);
  CAPTURE(unit);
  for (std::uint32_t attempts = 1; attempts <= 8; ++attempts) {
    const auto plain = retry_delay(limits, attempts, 0.0);
    const auto jittered = retry_delay(limits, attempts, unit);
    CHECK(jittered <= plain);
    CHECK(jittered >= plain * 4 / 5);
  }
  CHECK(retry_delay(limits, 1, 0.5) == 900ms);
}

TEST_CASE("delivery_time_max adds every timeout and every full delay", "[retry]") {
  // 8 attempts of lookup + request at 10 s, then 1 + 2 + 4 + 8 + 16 + 30 + 30 s of waiting.
  CHECK(delivery_time_max(limits, 10s) == 160s + 91s);
  constexpr delivery_limits once{.retry_initial = 1s, .retry_max = 30s, .attempts_max = 1};
  CHECK(delivery_time_max(once, 10s) == 20s);
}

TEST_CASE("the same seed gives the same delays", "[retry]") {
  std::uint64_t first = 7;
  std::uint64_t second = 7;
  for (std::uint32_t attempts = 1; attempts < limits.attempts_max; ++attempts) {
    const auto a = decide_after_attempt(limits, attempts, 503, first);
    const auto b = decide_after_attempt(limits, attempts, 503, second);
    CHECK(a.delay == b.delay);
  }
}
