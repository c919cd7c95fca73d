#pragma once
// What runwarden tells its service manager (systemd's sd_notify protocol), decided from the
// warden's snapshots alone: READY=1 once the runner is up and the control API listens,
// STATUS= lines a person reads in `systemctl status`, STOPPING=1 when the drain begins, and
// EXTEND_TIMEOUT_USEC= each time a drain makes progress, so a unit can keep a finite
// TimeoutStopSec= without systemd killing a job that is still finishing. Pure: the caller
// passes the wall-clock time of the snapshot, and sends the lines (sd_notify(3)).
//
// A drain's time is runwarden's to keep (drain.timeout, the hook's, the spot notice's);
// systemd's stop timeout only guards against a wedged runwarden. So the stop timeout is
// extended whenever the drain moved on (a later phase, fewer jobs), and also when half of
// the last extension is used up, for as long as the warden still answers (the caller feeds
// fresh snapshots the warden itself answered with).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

// Each sign of progress in a drain gives it at least this much more time before systemd's
// stop timeout; a drain with a deadline gets until its deadline plus this.
inline constexpr std::chrono::minutes drain_progress_grace{10};

// What stays the same for a whole run.
struct service_notice_facts {
  std::string unregister_host;  // the CI server a drain unregisters from, empty if none
};

// What has been told so far.
struct service_notice_state {
  bool control_listening = false;
  bool ready_sent = false;
  bool stopping_sent = false;
  std::string status_sent;
  // The drain's progress as last seen, to tell progress from a mere refresh.
  drain_phase phase_seen = drain_phase::none;
  std::optional<std::uint32_t> jobs_seen;
  std::optional<instant> extended_until;  // the stop timeout's end as last extended
};

// The lines to send for `snapshot` (possibly none), in the order systemd should read them;
// `wall_now` is the wall-clock time of snapshot.now. Updates `told`.
std::vector<std::string> notices_for(service_notice_state& told, const service_notice_facts& facts,
                                     const warden_snapshot& snapshot,
                                     std::chrono::system_clock::time_point wall_now);

// The STATUS= text alone (without the prefix), e.g. "running, 3 jobs",
// "draining: 2 jobs left, deadline 14:05 UTC, hook heartbeat in 40s" or
// "unregistering from gitlab.example.com: attempt 4, next in 30s". Waits are counted from
// the snapshot's time; a new snapshot (at least every refresh) gives a new count.
std::string status_text(const service_notice_facts& facts, const warden_snapshot& snapshot,
                        std::chrono::system_clock::time_point wall_now);

}  // namespace runwarden
