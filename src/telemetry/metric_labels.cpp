// See metric_labels.hpp.
#include "src/telemetry/metric_labels.hpp"

#include <csignal>

namespace runwarden {

namespace {

// Signals listed in exit_labels() after the three code entries, in the same order.
constexpr std::array<int, 7> counted_signals{SIGHUP,  SIGINT,  SIGQUIT, SIGABRT,
                                             SIGKILL, SIGSEGV, SIGTERM};
constexpr std::size_t code_label_count = 3;

constexpr std::array<exit_label, exit_label_count> all_exit_labels{{
    {"code", "0"},
    {"code", "1"},
    {"code", "other"},
    {"signal", "SIGHUP"},
    {"signal", "SIGINT"},
    {"signal", "SIGQUIT"},
    {"signal", "SIGABRT"},
    {"signal", "SIGKILL"},
    {"signal", "SIGSEGV"},
    {"signal", "SIGTERM"},
    {"signal", "other"},
}};

static_assert(code_label_count + counted_signals.size() + 1 == exit_label_count);

}  // namespace

std::string_view label_of(trigger_source source) { return trigger_token(source); }

std::string_view label_of(heartbeat_outcome outcome) {
  return outcome == heartbeat_outcome::recorded ? "recorded" : "failed";
}

std::string_view label_of(completion_result result) {
  switch (result) {
    case completion_result::completed:
      return "completed";
    case completion_result::already_done:
      return "already_done";
    case completion_result::refused:
      return "refused";
  }
  return "unknown";
}

std::string_view label_of(publish_outcome outcome) {
  switch (outcome) {
    case publish_outcome::sent:
      return "sent";
    case publish_outcome::throttled:
      return "throttled";
    case publish_outcome::rejected:
      return "rejected";
    case publish_outcome::failed:
      return "failed";
    case publish_outcome::overlapped:
      return "overlapped";
  }
  return "unknown";
}

std::string_view label_of(error_kind kind) {
  switch (kind) {
    case error_kind::runner_spawn:
      return "runner_spawn";
    case error_kind::drain:
      return "drain";
    case error_kind::http_request:
      return "http_request";
  }
  return "unknown";
}

const std::array<exit_label, exit_label_count>& exit_labels() { return all_exit_labels; }

std::size_t exit_label_index(const exit_status& status) {
  if (status.unknown) return 2;  // no readable code: counted as code="other"
  if (!status.signaled) {
    if (status.value == 0) return 0;
    if (status.value == 1) return 1;
    return 2;
  }
  for (std::size_t index = 0; index < counted_signals.size(); ++index) {
    if (counted_signals[index] == status.value) return code_label_count + index;
  }
  return exit_label_count - 1;
}

}  // namespace runwarden
