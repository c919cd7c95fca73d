#pragma once
// What an embedded runwarden instance is doing, as `runwarden ctl status` shows it, and
// what a host may ask of it. Plain values: a host may copy and keep them.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <caf/allowed_unsafe_message_type.hpp>

namespace runwarden::embedded {

struct status {
  std::uint64_t version = 0;  // grows with every change
  // "starting", "running", "shutting_down" or "gone"; only ever moves forward.
  std::string state;
  // Inside shutting_down: "waiting_for_runner", "draining", "forcing", "killing",
  // "unregistering", "completing"; "done" once gone, "none" before.
  std::string phase;
  std::optional<std::int64_t> runner_pid;     // while the runner runs
  std::optional<std::uint32_t> jobs_running;  // once the runner's metrics answered
  std::uint64_t restarts_total = 0;
  // What started the drain, if one did: "control_api" (a shutdown request), "sigterm",
  // "cloud_lifecycle", "spot_interruption", "idle_scale_in", ...
  std::string trigger;
  std::string reason;
  std::optional<int> exit_code;  // once gone: the runner's (128 + signal if it died of one)
};

// Graceful: the runner is signalled to finish its jobs, then unregistered; no job is killed
// before `deadline` (none: jobs take as long as they take). Forceful: the runner is told to
// stop now. A second request never restarts a drain; it may only tighten its deadline.
struct shutdown_request {
  std::string reason;
  std::optional<std::chrono::milliseconds> deadline = std::nullopt;
  bool forceful = false;
  // Called once, on a CAF worker thread, with the status at gone. Must not block.
  std::function<void(const status&)> on_gone = {};
};

}  // namespace runwarden::embedded

// Sent to the host's subscribed actors; local only, never serialized.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::embedded::status)
