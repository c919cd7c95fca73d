// The rules every shutdown request meets, from the gRPC services or an embedding host: a
// reason of one bounded line, and a relative deadline from zero to 30 days, judged in the
// request's own unit so that no value of it overflows on the way.

#include "src/drain/shutdown_request_limits.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

using namespace std::chrono_literals;

TEST_CASE("reasons are bounded and printable", "[drain][input]") {
  CHECK_FALSE(runwarden::reason_problem(""));
  CHECK_FALSE(runwarden::reason_problem("spot interruption, 2 min"));
  CHECK_FALSE(runwarden::reason_problem(std::string(1024, 'r')));
  CHECK(runwarden::reason_problem(std::string(1025, 'r')) == "reason is longer than 1024 bytes");
  CHECK(runwarden::reason_problem("two\nlines") ==
        "reason holds a line break or control character");
  CHECK(runwarden::reason_problem(std::string("nul\0inside", 10)));
}

TEST_CASE("relative deadlines run from zero to 30 days, in any unit, without overflow",
          "[drain][input]") {
  using runwarden::relative_deadline_problem;
  CHECK_FALSE(relative_deadline_problem(0ms));
  CHECK_FALSE(relative_deadline_problem(std::chrono::hours{24 * 30}));
  CHECK_FALSE(relative_deadline_problem(std::chrono::nanoseconds{std::chrono::hours{24 * 30}}));
  CHECK(relative_deadline_problem(-1ms) == "deadline must not be negative");
  CHECK(relative_deadline_problem(-1ns) == "deadline must not be negative");
  CHECK(relative_deadline_problem(std::chrono::hours{24 * 30} + 1ms) ==
        "deadline is longer than 2592000 seconds (30 days)");
  // Each of these overflows when converted to nanoseconds first.
  CHECK(relative_deadline_problem(std::chrono::milliseconds::max()) ==
        "deadline is longer than 2592000 seconds (30 days)");
  CHECK(relative_deadline_problem(std::chrono::milliseconds::min()) ==
        "deadline must not be negative");
  CHECK(relative_deadline_problem(std::chrono::seconds::max()));
  CHECK(relative_deadline_problem(std::chrono::hours::max()));
}
