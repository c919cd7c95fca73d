// The wall-clock mapping with both clocks given by the test: one instant shows one time in
// every answer despite jitter in reading the clocks, and a real step of the wall clock is
// followed.

#include "src/control/wall_clock_anchor.hpp"

#include <catch2/catch.hpp>
#include <chrono>

namespace {

using namespace std::chrono_literals;
using wall_time = std::chrono::system_clock::time_point;

}  // namespace

TEST_CASE("one instant maps to one wall time despite clock-reading jitter", "[control][time]") {
  runwarden::wall_clock_anchor anchor;
  const runwarden::instant drain_start{5s};
  const wall_time wall_at_10s{1'700'000'000s};
  const auto first = anchor.wall_time_of(drain_start, 10s, wall_at_10s);
  CHECK(first == wall_at_10s - 5s);
  // 40 microseconds of jitter between the two readings changes nothing.
  const auto second = anchor.wall_time_of(drain_start, 12s, wall_at_10s + 2s + 40us);
  CHECK(second == first);
}

TEST_CASE("a step of the wall clock is followed", "[control][time]") {
  runwarden::wall_clock_anchor anchor;
  const wall_time wall_at_10s{1'700'000'000s};
  anchor.wall_time_of(runwarden::instant{0s}, 10s, wall_at_10s);
  // NTP set the wall clock back by an hour.
  const auto after = anchor.wall_time_of(runwarden::instant{11s}, 11s, wall_at_10s + 1s - 1h);
  CHECK(after == wall_at_10s + 1s - 1h);
}
