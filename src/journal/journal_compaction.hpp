#pragma once
// Compaction on size. A runwarden that supervises one runner for months records every
// restart and every change of the job count; recovery would read all of it. While no drain
// is under way almost none of that history matters: what recovery needs is that runwarden
// runs, which runner process it adopts, and how many jobs that runner had. So a journal past
// its size limit is rewritten as the few entries that rebuild exactly that state, each with
// the effects a fresh machine gives it, so `runwarden replay --check` holds for the
// compacted journal as for any other.
//
// During a drain nothing is compacted: deadlines, heartbeats and the wind-down all live in
// its history, and a drain's journal is retired at gone anyway. What compaction forgets:
// the restart budget's window and the restart count (a runner that crashes right after a
// compaction starts a fresh budget).

#include <optional>
#include <vector>

#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct compacted_step {
  drain_event event;
  std::vector<drain_effect> effects;  // what a fresh machine answers, recorded alongside
};

// The steps that rebuild `state` (status, runner process, jobs) in a fresh machine with
// `config`, at `now`; nullopt when the state is not one compaction may rebuild (a drain
// under way, a runner being spawned or between restarts).
std::optional<std::vector<compacted_step>> compacted_steps(const drain_config& config,
                                                           const drain_state& state, instant now);

}  // namespace runwarden
