#pragma once
// What an embedded runwarden instance is doing, as `runwarden ctl status` shows it, and
// what a host may ask of it. Plain values: a host may copy and keep them. The words are
// enums, so that a misspelt one does not compile; to_string gives each its text for logs
// (the words `runwarden ctl status --json` uses).

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <caf/allowed_unsafe_message_type.hpp>

namespace runwarden::embedded {

// Only ever moves forward.
enum class instance_state : std::uint8_t { starting, running, shutting_down, gone };

// Progress inside shutting_down; `none` before it, `done` once gone.
enum class shutdown_phase : std::uint8_t {
  none,
  waiting_for_runner,  // the runner is still being spawned; it is signalled once up
  draining,            // graceful signal sent, jobs finishing
  forcing,             // forceful signal sent
  killing,             // SIGKILL sent
  unregistering,       // waiting for the CI server to forget the runner
  completing,          // completing the cloud's lifecycle action
  done,
};

// What started a drain. New values are added at the end.
enum class shutdown_trigger : std::uint8_t {
  host,  // the host's request_shutdown
  signal_terminate,
  signal_interrupt,
  signal_quit,
  control_api,  // only in a drain recovered from a journal that `runwarden run` began
  cloud_lifecycle,
  idle_scale_in,
  spot_interruption,
  rebalance_recommendation,
  ec2_scheduled_maintenance,
  azure_preempt,
  azure_terminate,
  azure_reboot,
  azure_redeploy,
  gcp_preemption,
  gcp_host_maintenance,
  retirement,   // the machine's purpose ended ([runner] after_exit, recycling)
  replacement,  // past the restart budget, marked unhealthy ([runner] on_give_up)
  os_shutdown,  // the operating system is shutting down (logind's PrepareForShutdown)
};

// "running", "draining", "host", ...: the words of `runwarden ctl status --json`.
std::string_view to_string(instance_state state);
std::string_view to_string(shutdown_phase phase);
std::string_view to_string(shutdown_trigger trigger);

struct status {
  std::uint64_t version = 0;  // grows with every change
  instance_state state = instance_state::starting;
  shutdown_phase phase = shutdown_phase::none;
  std::optional<std::int64_t> runner_pid;     // while the runner runs
  std::optional<std::uint32_t> jobs_running;  // once the runner's metrics answered
  std::uint64_t restarts_total = 0;
  std::optional<shutdown_trigger> trigger;  // once a drain started
  std::string reason;
  // Once gone, when known: the runner's exit code (128 + signal if it died of one; 126 or
  // 127 when it could not be started).
  std::optional<int> exit_code;
  // Once gone, true when the runner's end was seen but not how it ended (it ended while no
  // runwarden watched it and was not this process's child, or the host reaped it); then
  // exit_code is empty.
  bool exit_unknown = false;
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
