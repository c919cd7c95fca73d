#pragma once
// What the runner says of its jobs: its metrics' count (runner_load_observed) and the jobs
// its hooks report (job_reported), combined into the one count everything else reads. A
// metrics answer also shows the runner past its start, its signal handlers in place.

#include "src/drain/drain_step.hpp"

namespace runwarden {

// Cells of the table.
void observe_load(drain_step& step, const runner_load_observed& event);
void count_reported_job(drain_step& step, const job_reported& event);
void note_stray(drain_step& step, const job_reported& event);

}  // namespace runwarden
