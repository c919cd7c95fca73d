// See job_slots.hpp.
#include "src/scaling/job_slots.hpp"

#include <algorithm>

#include "src/util/assert.hpp"

namespace runwarden {

std::optional<job_slots> job_slots_of(warden_status status,
                                      std::optional<std::uint32_t> jobs_running,
                                      std::uint32_t capacity) {
  RUNWARDEN_ASSERT(capacity > 0);
  if (!jobs_running) return std::nullopt;
  switch (status) {
    case warden_status::starting:
    case warden_status::gone:
      return std::nullopt;
    case warden_status::running:
      return job_slots{*jobs_running, std::max(capacity, *jobs_running)};
    case warden_status::shutting_down:
      return job_slots{*jobs_running, *jobs_running};
  }
  return std::nullopt;
}

}  // namespace runwarden
