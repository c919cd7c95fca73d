#pragma once
// This runner's job slots as the published metrics count them (JobSlotsBusy, JobSlotsTotal),
// from the warden's status and the jobs its metrics poller saw. A fleet's utilisation is
// SUM(busy) / SUM(total) over the group, so each instance adds only slots that can take a job:
//   starting, or jobs unknown   nothing: an unknown count is never zero, and a runner that
//                                is not up offers no slot yet
//   running                     busy = jobs, total = capacity (jobs if more: a capacity set
//                                too low never makes utilisation pass 100 %)
//   shutting_down               busy = jobs, total = jobs: a draining runner takes no new
//                                job, so it offers no free slot, but the jobs it finishes
//                                still count, and the group does not scale in under them
//   gone                        nothing
// Pure, so the publisher's tests and the simulation count alike.

#include <cstdint>
#include <optional>

#include "src/drain/drain_vocabulary.hpp"

namespace runwarden {

struct job_slots {
  std::uint32_t busy = 0;
  std::uint32_t total = 0;
};

std::optional<job_slots> job_slots_of(warden_status status,
                                      std::optional<std::uint32_t> jobs_running,
                                      std::uint32_t capacity);

}  // namespace runwarden
