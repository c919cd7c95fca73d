// See service_notices.hpp. The texts follow the drain's phases (warden_snapshot.hpp) and
// name what a person would check next: the jobs left, the deadline, the hook kept alive.
#include "src/telemetry/service_notices.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>

#include "src/util/assert.hpp"

namespace runwarden {

namespace {

std::string jobs_text(std::uint32_t jobs) {
  return fmt::format("{} {}", jobs, jobs == 1 ? "job" : "jobs");
}

// "14:05 UTC", with the date in front when it is not today's (in UTC).
std::string clock_text(std::chrono::system_clock::time_point at,
                       std::chrono::system_clock::time_point wall_now) {
  const auto seconds = std::chrono::floor<std::chrono::seconds>(at);
  const auto day = std::chrono::floor<std::chrono::days>(at);
  if (day == std::chrono::floor<std::chrono::days>(wall_now))
    return fmt::format("{:%H:%M} UTC", seconds);
  return fmt::format("{:%Y-%m-%d %H:%M} UTC", seconds);
}

// "running, 3 jobs", and the restarts since runwarden started, the last exit with them.
std::string running_text(const warden_snapshot& snapshot) {
  std::string text = "running";
  if (snapshot.jobs_running) text += ", " + jobs_text(*snapshot.jobs_running);
  if (snapshot.restarts_total > 0) {
    text += fmt::format(", {} {}", snapshot.restarts_total,
                        snapshot.restarts_total == 1 ? "restart" : "restarts");
    if (snapshot.last_exit) text += " (last: " + to_string(*snapshot.last_exit) + ")";
  }
  return text;
}

// "40s", "2m5s": a wait as a person reads it, whole seconds, rounded up so that a wait
// about to end never reads "0s" early.
std::string seconds_text(duration wait) {
  const auto seconds =
      std::max<std::int64_t>(0, std::chrono::ceil<std::chrono::seconds>(wait).count());
  if (seconds < 60) return fmt::format("{}s", seconds);
  if (seconds % 60 == 0) return fmt::format("{}m", seconds / 60);
  return fmt::format("{}m{}s", seconds / 60, seconds % 60);
}

std::chrono::system_clock::time_point wall_of(instant at, const warden_snapshot& snapshot,
                                              std::chrono::system_clock::time_point wall_now) {
  return wall_now +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(at - snapshot.now);
}

std::string draining_text(const warden_snapshot& snapshot,
                          std::chrono::system_clock::time_point wall_now) {
  std::string text = "draining: ";
  if (!snapshot.jobs_running)
    text += "waiting for the runner to finish its jobs and exit";
  else if (*snapshot.jobs_running == 0)
    text += "no jobs left, waiting for the runner to exit";
  else
    text += jobs_text(*snapshot.jobs_running) + " left";
  if (snapshot.drain_deadline)
    text +=
        ", deadline " + clock_text(wall_of(*snapshot.drain_deadline, snapshot, wall_now), wall_now);
  if (snapshot.next_heartbeat_at)
    text += ", hook heartbeat in " + seconds_text(*snapshot.next_heartbeat_at - snapshot.now);
  else if (snapshot.lifecycle_hook)
    text += ", lifecycle hook " + *snapshot.lifecycle_hook + " held";
  return text;
}

// "unregistering from gitlab.example.com: attempt 4, next in 30s".
std::string unregistering_text(const service_notice_facts& facts, const warden_snapshot& snapshot) {
  std::string text =
      "unregistering from " +
      (facts.unregister_host.empty() ? std::string{"the CI server"} : facts.unregister_host);
  if (snapshot.unregistration_attempts == 0) return text;
  text += fmt::format(": attempt {}", snapshot.unregistration_attempts);
  if (snapshot.next_unregistration_at)
    text += ", next in " + seconds_text(*snapshot.next_unregistration_at - snapshot.now);
  return text;
}

std::string shutting_down_text(const service_notice_facts& facts, const warden_snapshot& snapshot,
                               std::chrono::system_clock::time_point wall_now) {
  switch (snapshot.phase) {
    case drain_phase::none:
    case drain_phase::waiting_for_runner:
      return "draining: waiting for the runner to start";
    case drain_phase::draining:
      return draining_text(snapshot, wall_now);
    case drain_phase::forcing:
      return "draining: deadline passed, forceful signal sent";
    case drain_phase::killing:
      return "draining: runner did not stop, SIGKILL sent";
    case drain_phase::unregistering:
      return unregistering_text(facts, snapshot);
    case drain_phase::completing:
      return "completing lifecycle hook " + snapshot.lifecycle_hook.value_or("(looking it up)");
    case drain_phase::done:
      break;
  }
  return "stopping";
}

// True when a drain moved on since last told: a later phase, or fewer jobs running.
bool drain_progressed(const service_notice_state& told, const warden_snapshot& snapshot) {
  if (snapshot.phase != told.phase_seen) return true;
  return snapshot.jobs_running && told.jobs_seen && *snapshot.jobs_running < *told.jobs_seen;
}

bool extension_half_used(const service_notice_state& told, const warden_snapshot& snapshot) {
  if (!told.extended_until) return true;
  return *told.extended_until - snapshot.now <= duration{drain_progress_grace} / 2;
}

std::chrono::microseconds extension_for(const warden_snapshot& snapshot) {
  std::chrono::microseconds extension = drain_progress_grace;
  if (snapshot.drain_deadline && *snapshot.drain_deadline > snapshot.now)
    extension = std::max(extension, std::chrono::duration_cast<std::chrono::microseconds>(
                                        *snapshot.drain_deadline - snapshot.now) +
                                        drain_progress_grace);
  return extension;
}

}  // namespace

std::string status_text(const service_notice_facts& facts, const warden_snapshot& snapshot,
                        std::chrono::system_clock::time_point wall_now) {
  switch (snapshot.status) {
    case warden_status::starting:
      return "starting the runner";
    case warden_status::running:
      return running_text(snapshot);
    case warden_status::shutting_down:
      return shutting_down_text(facts, snapshot, wall_now);
    case warden_status::gone:
      if (!snapshot.exit_code) return "gone";
      return fmt::format("gone, exit code {}: {}", *snapshot.exit_code, snapshot.exit_reason);
  }
  return "unknown";
}

std::vector<std::string> notices_for(service_notice_state& told, const service_notice_facts& facts,
                                     const warden_snapshot& snapshot,
                                     std::chrono::system_clock::time_point wall_now) {
  std::vector<std::string> lines;
  if (!told.ready_sent && told.control_listening && snapshot.status != warden_status::starting) {
    told.ready_sent = true;
    lines.emplace_back("READY=1");
  }
  const bool stopping =
      snapshot.status == warden_status::shutting_down || snapshot.status == warden_status::gone;
  if (stopping && !told.stopping_sent) {
    told.stopping_sent = true;
    lines.emplace_back("STOPPING=1");
  }
  if (auto text = status_text(facts, snapshot, wall_now); text != told.status_sent) {
    told.status_sent = text;
    lines.push_back("STATUS=" + std::move(text));
  }
  if (snapshot.status == warden_status::shutting_down &&
      (drain_progressed(told, snapshot) || extension_half_used(told, snapshot))) {
    const auto extension = extension_for(snapshot);
    told.extended_until = snapshot.now + extension;
    lines.push_back(fmt::format("EXTEND_TIMEOUT_USEC={}", extension.count()));
  }
  told.phase_seen = snapshot.phase;
  told.jobs_seen = snapshot.jobs_running;
  RUNWARDEN_ASSERT(told.ready_sent || !told.control_listening ||
                   snapshot.status == warden_status::starting);
  return lines;
}

}  // namespace runwarden
