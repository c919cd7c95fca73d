// The unregistration retry schedule as a table: outcome, attempt and wall clock in, verdict
// and wait out. Jitter is checked against the shared backoff with the same random draw, so a
// change to either shows here.
#include <catch2/catch.hpp>

#include "src/unregister/retry_schedule.hpp"
#include "src/util/capped_backoff.hpp"
#include "src/util/seeded_random.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using std::chrono::system_clock;

const system_clock::time_point now{std::chrono::seconds{1'700'000'000}};

unregister_outcome outcome_of(outcome_kind kind) { return {kind, "why", {}, {}}; }

// The decision with no jitter in play: the random state is checked separately.
unregister_decision decide(const unregister_retry_limits& limits, const unregister_outcome& outcome,
                           std::uint32_t attempts) {
  std::uint64_t random_state = 0;
  return decide_after_outcome(limits, outcome, attempts, now, random_state);
}

}  // namespace

TEST_CASE("capped_backoff doubles, caps, and shortens by at most the jitter", "[unregister]") {
  CHECK(capped_backoff(1s, 60s, 1, 0.0, 0.0) == 1s);
  CHECK(capped_backoff(1s, 60s, 2, 0.0, 0.0) == 2s);
  CHECK(capped_backoff(1s, 60s, 6, 0.0, 0.0) == 32s);
  CHECK(capped_backoff(1s, 60s, 7, 0.0, 0.0) == 60s);
  CHECK(capped_backoff(1s, 60s, 4'000'000'000u, 0.0, 0.0) == 60s);
  CHECK(capped_backoff(10s, 60s, 1, 0.2, 0.5) == 9s);
  CHECK(capped_backoff(5s, 1s, 3, 0.0, 0.0) == 5s);  // the initial wait is never cut
}

TEST_CASE("done outcomes end the retries on any attempt", "[unregister]") {
  for (const auto kind : {outcome_kind::unregistered, outcome_kind::already_gone}) {
    const auto decision = decide({}, outcome_of(kind), 7);
    CHECK(decision.verdict == unregister_verdict::done);
    CHECK(decision.report == "why");
  }
}

TEST_CASE("failures retry forever with capped exponential backoff by default", "[unregister]") {
  const unregister_retry_limits limits{1s, 30s, 0};
  for (const auto kind : {outcome_kind::transient, outcome_kind::busy, outcome_kind::refused}) {
    std::uint64_t random_state = 42;
    std::uint64_t expected_state = 42;
    for (std::uint32_t attempts = 1; attempts < 100; ++attempts) {
      const auto decision =
          decide_after_outcome(limits, outcome_of(kind), attempts, now, random_state);
      REQUIRE(decision.verdict == unregister_verdict::retry);
      const auto expected =
          capped_backoff(1s, 30s, attempts, unregister_jitter, next_unit_random(expected_state));
      CHECK(decision.delay == expected);
      CHECK(decision.delay <= 30s);
      CHECK(decision.delay >= 1s * (1.0 - unregister_jitter));
    }
    CHECK(random_state == expected_state);
  }
  CHECK_THAT(decide(limits, outcome_of(outcome_kind::transient), 3).report,
             Catch::Matches(R"(why; next attempt in \d(\.\d+)?s)"));
}

TEST_CASE("a configured attempts_max gives up, and only then", "[unregister]") {
  const unregister_retry_limits limits{1s, 30s, 3};
  CHECK(decide(limits, outcome_of(outcome_kind::refused), 2).verdict == unregister_verdict::retry);
  const auto last = decide(limits, outcome_of(outcome_kind::refused), 3);
  CHECK(last.verdict == unregister_verdict::give_up);
  CHECK(last.report == "why; gave up after 3 attempts (attempts_max)");
  CHECK(decide(limits, outcome_of(outcome_kind::already_gone), 3).verdict ==
        unregister_verdict::done);
}

TEST_CASE("server waits: retry-after, then the reset time, then at least a minute",
          "[unregister]") {
  const unregister_retry_limits limits{1s, 5min, 0};
  struct row {
    outcome_kind kind;
    std::optional<std::chrono::seconds> retry_after;
    std::optional<system_clock::time_point> reset_at;
    std::uint32_t attempts;
    std::chrono::nanoseconds shortest;  // the jitter may shorten a backoff down to this
    std::chrono::nanoseconds longest;
  };
  const row rows[] = {
      {outcome_kind::rate_limited, 7s, now + 300s, 1, 7s, 7s},   // retry-after wins
      {outcome_kind::rate_limited, 0s, {}, 1, 0s, 0s},           // honoured even when zero
      {outcome_kind::rate_limited, {}, now + 42s, 1, 42s, 42s},  // then the reset time
      {outcome_kind::rate_limited, {}, now - 5s, 1, 60s, 60s},   // a past reset: the minimum
      {outcome_kind::rate_limited, {}, {}, 1, 60s, 60s},         // neither: at least a minute
      {outcome_kind::rate_limited, {}, {}, 8, 102400ms, 128s},   // ... and backoff beyond it
      {outcome_kind::rate_limited, 100'000s, {}, 1, 1h, 1h},     // a silly wish is capped
      {outcome_kind::rate_limited, {}, now + 100'000s, 1, 1h, 1h},
      {outcome_kind::transient, 3s, {}, 5, 3s, 3s},  // a 503's retry-after too
      {outcome_kind::busy, {}, {}, 2, 1600ms, 2s},   // busy: plain backoff
  };
  for (const auto& [kind, retry_after, reset_at, attempts, shortest, longest] : rows) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      std::uint64_t random_state = seed;
      const auto decision = decide_after_outcome(limits, {kind, "why", retry_after, reset_at},
                                                 attempts, now, random_state);
      INFO(to_string(kind) << " attempt " << attempts << " seed " << seed);
      REQUIRE(decision.verdict == unregister_verdict::retry);
      CHECK(decision.delay >= shortest);
      CHECK(decision.delay <= longest);
    }
  }
}
