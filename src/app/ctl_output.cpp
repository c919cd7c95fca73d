// See ctl_output.hpp. Names come from the generated enum descriptors ("STATE_SHUTTING_DOWN"
// prints as "shutting_down"), so a value added to the .proto prints without a change here,
// and one this build does not know prints as "unknown(N)".
#include "src/app/ctl_output.hpp"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <cctype>

#include "src/aws/instance_retention.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

using google::protobuf::Timestamp;
using google::protobuf::util::TimeUtil;

std::string enum_word(const std::string& name, std::string_view prefix, int value) {
  if (name.empty()) return "unknown(" + std::to_string(value) + ")";
  std::string word = name.substr(name.starts_with(prefix) ? prefix.size() : 0);
  std::transform(word.begin(), word.end(), word.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  return word;
}

std::string state_word(const v1::StatusResponse& status) {
  return enum_word(v1::State_Name(status.state()), "STATE_", status.state());
}

std::string phase_word(const v1::StatusResponse& status) {
  return enum_word(v1::DrainPhase_Name(status.drain_phase()), "DRAIN_PHASE_", status.drain_phase());
}

std::string trigger_word(const v1::StatusResponse& status) {
  return enum_word(v1::Trigger_Name(status.trigger()), "TRIGGER_", status.trigger());
}

// From `from` to `to`, in whole seconds: "3s", "1m30s"; negative spans print as "0s".
std::string span(const Timestamp& from, const Timestamp& to) {
  const auto milliseconds =
      TimeUtil::TimestampToMilliseconds(to) - TimeUtil::TimestampToMilliseconds(from);
  const auto seconds = std::max<std::int64_t>(0, milliseconds / 1000);
  return format_duration(std::chrono::seconds{seconds});
}

// "deadline in 3m", or, once it has passed (the wind-down still waits on a CI server or an
// Auto Scaling endpoint), "deadline passed 9m ago": never a "0s" that stays for minutes.
std::string deadline_text(const v1::StatusResponse& status) {
  if (TimeUtil::TimestampToMilliseconds(status.deadline()) >=
      TimeUtil::TimestampToMilliseconds(status.observed_at()))
    return "deadline in " + span(status.observed_at(), status.deadline());
  return "deadline passed " + span(status.deadline(), status.observed_at()) + " ago";
}

std::string time_text(const Timestamp& at) {
  return TimeUtil::ToString(TimeUtil::SecondsToTimestamp(at.seconds()));
}

std::string jobs_text(const v1::StatusResponse& status) {
  return status.has_jobs_running() ? std::to_string(status.jobs_running().value()) : "unknown";
}

// The jobs the runner reported, after the count: "2 (reported: build-1, build-2)".
std::string reported_text(const v1::StatusResponse& status) {
  std::string text;
  for (const auto& job : status.reported_jobs()) text += (text.empty() ? "" : ", ") + job;
  return text.empty() ? "" : " (reported: " + text + ")";
}

std::string drain_text(const v1::StatusResponse& status) {
  if (!status.has_drain_started_at()) return "not started";
  std::string text = "by " + trigger_word(status);
  if (!status.reason().empty()) text += " (\"" + status.reason() + "\")";
  text += ", " + span(status.drain_started_at(), status.observed_at()) + " elapsed";
  if (status.has_deadline() && status.state() != v1::STATE_GONE)
    text += ", " + deadline_text(status);
  return text;
}

nlohmann::json optional_time(bool present, const Timestamp& at) {
  return present ? nlohmann::json(TimeUtil::ToString(at)) : nlohmann::json(nullptr);
}

// The instance's Auto Scaling state, once read; a retained one says what becomes of it.
std::string instance_text(const v1::StatusResponse& status) {
  const auto& lifecycle_state = status.instance_lifecycle_state();
  if (lifecycle_state.empty()) return {};
  const bool retained = is_retained_state(lifecycle_state);
  return "instance:  " + lifecycle_state +
         (retained ? " (kept by its group past an abandoned hook; terminated once the runner "
                     "is gone)"
                   : "") +
         "\n";
}

}  // namespace

std::string status_text(const v1::StatusResponse& status) {
  std::string state = state_word(status);
  if (status.state() == v1::STATE_SHUTTING_DOWN) state += " (" + phase_word(status) + ")";
  state += " for " + span(status.state_since(), status.observed_at());
  if (status.has_exit_code())
    state += ", exit code " + std::to_string(status.exit_code().value()) + " (" +
             status.exit_reason() + ")";
  const std::string runner =
      (status.runner_pid() != 0 ? "pid " + std::to_string(status.runner_pid()) : "not running") +
      ", " + std::to_string(status.restarts()) +
      " restarts, last exit: " + (status.has_last_exit() ? status.last_exit().text() : "none") +
      (status.runner_state().empty() ? "" : ", says " + status.runner_state());
  return "runwarden: " + state + "\nrunner:    " + runner + "\njobs:      " + jobs_text(status) +
         reported_text(status) + "\ndrain:     " + drain_text(status) + "\n" +
         (status.unregistration().empty() ? ""
                                          : "unregistered: " + status.unregistration() + "\n") +
         instance_text(status);
}

std::string change_line(const v1::StatusResponse& status) {
  std::string line = time_text(status.observed_at()) + " " + state_word(status);
  if (status.state() == v1::STATE_SHUTTING_DOWN) line += "/" + phase_word(status);
  if (status.runner_pid() != 0) line += " pid " + std::to_string(status.runner_pid());
  line += " jobs " + jobs_text(status);
  if (status.has_drain_started_at())
    line += ", drain " + span(status.drain_started_at(), status.observed_at());
  if (status.has_deadline() && status.state() != v1::STATE_GONE)
    line += ", " + deadline_text(status);
  if (status.has_exit_code()) line += ", exit code " + std::to_string(status.exit_code().value());
  return line + "\n";
}

nlohmann::json status_json(const v1::StatusResponse& status) {
  nlohmann::json last_exit = nullptr;
  if (status.has_last_exit())
    last_exit = {{"signaled", status.last_exit().signaled()},
                 {"value", status.last_exit().value()},
                 {"unknown", status.last_exit().unknown()},
                 {"text", status.last_exit().text()}};
  return {
      {"state", state_word(status)},
      {"drain_phase", phase_word(status)},
      {"runner_pid", status.runner_pid() != 0 ? nlohmann::json(status.runner_pid()) : nullptr},
      {"jobs_running",
       status.has_jobs_running() ? nlohmann::json(status.jobs_running().value()) : nullptr},
      {"reported_jobs", nlohmann::json(std::vector<std::string>(status.reported_jobs().begin(),
                                                                status.reported_jobs().end()))},
      {"restarts", status.restarts()},
      {"runner_state", status.runner_state().empty() ? nlohmann::json(nullptr)
                                                     : nlohmann::json(status.runner_state())},
      {"state_since", TimeUtil::ToString(status.state_since())},
      {"drain_started_at", optional_time(status.has_drain_started_at(), status.drain_started_at())},
      {"deadline", optional_time(status.has_deadline(), status.deadline())},
      {"trigger", status.has_drain_started_at() ? nlohmann::json(trigger_word(status)) : nullptr},
      {"reason", status.reason()},
      {"last_exit", last_exit},
      {"exit_code", status.has_exit_code() ? nlohmann::json(status.exit_code().value()) : nullptr},
      {"exit_reason", status.exit_reason()},
      {"lifecycle_hook", status.lifecycle_hook()},
      {"unregistration", status.unregistration()},
      {"instance_lifecycle_state", status.instance_lifecycle_state().empty()
                                       ? nlohmann::json(nullptr)
                                       : nlohmann::json(status.instance_lifecycle_state())},
      {"version", status.version()},
      {"observed_at", TimeUtil::ToString(status.observed_at())},
  };
}

}  // namespace runwarden
