#pragma once
// Compaction on size. A runwarden that supervises one runner for months records every
// restart and every change of the job count; recovery would read all of it. While no drain
// is under way almost none of that history matters: what recovery needs is that runwarden
// runs, which runner process it adopts, and how many jobs that runner had. So a journal past
// its size limit is rewritten as the few entries that rebuild exactly that state, each with
// the effects a fresh machine gives it, so `runwarden replay --check` holds for the
// compacted journal as for any other.
//
// The entries keep the times of the facts they stand for: runwarden's first start and the
// runner's spawn. Readers of the journal take bounds from those times (the uptime bound
// falls back to the first start, a one-job runner's idle bound counts from its spawn, the
// start grace from the spawn); stamped with the compaction's own time, every compaction
// would start them over, and periodic compactions would postpone them for good.
//
// During a drain nothing is compacted: deadlines, heartbeats and the wind-down all live in
// its history, and a drain's journal is retired at gone anyway. Nor while restarts still
// count against the restart budget (within its window): the budget lives in them. The jobs
// taken are written again as such (journal_history), so that recycling after N jobs and the
// idle bound decide after a compaction as before it. What compaction forgets, shown in the
// status only: the restart count, the last exit and the running-since time of the runners
// before this one (status then says since this runner's spawn); and where the restart
// backoff's jitter had got to (it draws again from the seed).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

// What the drain state does not keep and a compacted journal must: folded from every entry.
// The jobs are counted as the retirement machine counts them from the same entries
// (actors/warden/warden_retirement.cpp, observe_for_retirement): per runner, the starts it
// reported and the rises of its metrics' count. A compacted journal writes the jobs of the
// runners before this one as loads before its spawn, and this runner's as its own.
struct journal_history {
  std::optional<instant> first_started_at;  // the first warden_started's time
  std::uint64_t jobs_before_this_runner = 0;
  std::uint64_t reported_starts = 0;  // this runner's
  std::uint64_t counted_rises = 0;    // this runner's
  std::uint32_t last_running = 0;     // this runner's last count from its metrics
  bool loaded_this_runner = false;    // a load came since this runner's spawn
  friend bool operator==(const journal_history&, const journal_history&) = default;
};

// Folds one entry into `history`: `after` is the drain state once it took the entry,
// `reported_before` the number of reported jobs before it.
void observe_entry(journal_history& history, const drain_event& event, instant at,
                   const drain_state& after, std::size_t reported_before);

// This runner's reported jobs that ended, written again as a start and an end each: past
// this many, the history is kept (a runner's reports would outgrow the journal they replace).
inline constexpr std::uint64_t compacted_ended_jobs_max = 64;

struct compacted_step {
  instant at;  // the time of the fact it stands for; never after the compaction's `now`
  drain_event event;
  std::vector<drain_effect> effects;  // what a fresh machine answers, recorded alongside
};

// The steps that rebuild `state` (status, runner process, jobs, the runner's start) in a
// fresh machine with `config`, at the times `history` and `state` keep; nullopt when the
// state is not one compaction may rebuild (a drain under way, a runner being spawned or
// between restarts, restarts inside the budget window, a history that does not say when
// runwarden started, more ended reports than compacted_ended_jobs_max).
std::optional<std::vector<compacted_step>> compacted_steps(const drain_config& config,
                                                           const drain_state& state,
                                                           const journal_history& history,
                                                           instant now);

}  // namespace runwarden
