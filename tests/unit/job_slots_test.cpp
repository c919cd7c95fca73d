// The job slots a runner publishes, by status: none while starting, gone or not knowing its
// jobs; capacity while running; only its busy slots while it drains.
#include <catch2/catch.hpp>

#include "src/scaling/job_slots.hpp"

using namespace runwarden;

TEST_CASE("job slots by status", "[cloudwatch]") {
  CHECK_FALSE(job_slots_of(warden_status::starting, 0u, 4));
  CHECK_FALSE(job_slots_of(warden_status::running, std::nullopt, 4));
  CHECK_FALSE(job_slots_of(warden_status::gone, 0u, 4));
  const auto running = job_slots_of(warden_status::running, 1u, 4);
  REQUIRE(running);
  CHECK((running->busy == 1 && running->total == 4));
  const auto over = job_slots_of(warden_status::running, 6u, 4);  // capacity set too low
  CHECK((over->busy == 6 && over->total == 6));
  const auto draining = job_slots_of(warden_status::shutting_down, 2u, 4);
  CHECK((draining->busy == 2 && draining->total == 2));
}
