#pragma once
// When runwarden holds a logind delay inhibitor lock for shutdown, decided from the warden's
// snapshots alone, as the kubelet's graceful node shutdown holds one (KEP-2000): a
// shutdown or reboot the operating system starts (`shutdown -h`, unattended-upgrades'
// reboot) then waits, up to logind's InhibitDelayMaxSec, while jobs still run, instead of
// going ahead and reaching the runner as a SIGTERM on a machine about to go.
//
// Held while the runner has jobs (jobs_running > 0) and is still up: running, or draining
// towards its stop. Released once the jobs are done, and once the drain is past the runner
// (unregistering, completing, gone): nothing the lock protects is left, and a shutdown that
// waited for it may go ahead. Unknown jobs (no metrics yet) change nothing, as for the pod
// annotator. Pure: the caller takes and releases the lock (src/ports/os/logind_inhibitor).
// Sleep is not inhibited, as the kubelet does not: a suspended machine resumes with its jobs
// alive, and a delay raised to the drain timeout would hold every suspend that long.
//
//            jobs > 0 (runner up)
//   released ─────────────────────▶ held
//       ▲                            │ jobs == 0, or the drain past the runner
//       └────────────────────────────┘

#include <optional>

#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

enum class inhibitor_change : std::uint8_t { take, release };

struct shutdown_inhibit_state {
  bool held = false;  // as decided: the port may have failed to take it
};

// What to do for `snapshot`: take, release, or nothing. Updates `state`.
std::optional<inhibitor_change> follow_snapshot(shutdown_inhibit_state& state,
                                                const warden_snapshot& snapshot);

// True when the runner, as `snapshot` sees it, may still run jobs worth a delay: running,
// or shutting down before the runner's end (waiting for it, draining, forcing, killing).
bool runner_may_run_jobs(const warden_snapshot& snapshot);

}  // namespace runwarden
