#pragma once
// The closed sets of label values runwarden's metrics use. Every label value comes from one
// of these tables, never from input (no pids, URLs, reasons or times), so the number of
// series is fixed when the program is built and a scrape always has the same shape.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/drain/drain_vocabulary.hpp"
#include "src/drain/warden_snapshot.hpp"
#include "src/unregister/unregister_outcome.hpp"

namespace runwarden {

// What runwarden_errors_total counts. Webhook failures have their own family.
enum class error_kind : std::uint8_t {
  runner_spawn,  // the runner command could not be started
  drain,         // the drain machine reported an error (a refused shutdown callback)
  http_request,  // a malformed or oversized request to the HTTP endpoints
};

// How a lifecycle hook heartbeat ended: recorded, or failed (refused, or still failing after
// its retries).
enum class heartbeat_outcome : std::uint8_t { recorded, failed };
// How a lifecycle action's completion ended: accepted, found already done ("no active
// lifecycle action"), or refused for good (a missing permission).
enum class completion_result : std::uint8_t { completed, already_done, refused };
// What became of a point (one datum) runwarden meant to publish to CloudWatch:
//   sent        CloudWatch accepted it
//   throttled   still throttled when its interval ran out: dropped
//   rejected    refused for a reason retrying cannot fix (InvalidParameterValue, a missing
//               permission, rejected credentials): dropped
//   failed      no answer, 5xx or no group known within its interval: dropped
//   overlapped  the previous point's call was still under way: dropped unsent
enum class publish_outcome : std::uint8_t { sent, throttled, rejected, failed, overlapped };

inline constexpr std::size_t warden_status_count = 4;
inline constexpr std::size_t drain_phase_count = 8;
inline constexpr std::size_t trigger_source_count = 19;
inline constexpr std::size_t signal_purpose_count = 4;
inline constexpr std::size_t notification_kind_count = 5;
inline constexpr std::size_t error_kind_count = 3;
inline constexpr std::size_t heartbeat_outcome_count = 2;
inline constexpr std::size_t completion_result_count = 3;
inline constexpr std::size_t unregister_outcome_count = 6;
inline constexpr std::size_t publish_outcome_count = 5;

static_assert(static_cast<std::size_t>(warden_status::gone) + 1 == warden_status_count);
static_assert(static_cast<std::size_t>(drain_phase::done) + 1 == drain_phase_count);
static_assert(static_cast<std::size_t>(trigger_source::os_shutdown) + 1 == trigger_source_count);
static_assert(static_cast<std::size_t>(signal_purpose::reload) + 1 == signal_purpose_count);
static_assert(static_cast<std::size_t>(notification_kind::restart_budget_spent) + 1 ==
              notification_kind_count);
static_assert(static_cast<std::size_t>(error_kind::http_request) + 1 == error_kind_count);
static_assert(static_cast<std::size_t>(heartbeat_outcome::failed) + 1 == heartbeat_outcome_count);
static_assert(static_cast<std::size_t>(completion_result::refused) + 1 == completion_result_count);
static_assert(static_cast<std::size_t>(outcome_kind::refused) + 1 == unregister_outcome_count);
static_assert(static_cast<std::size_t>(publish_outcome::overlapped) + 1 == publish_outcome_count);

// Lower-case words fit for a label: "sigterm", "control_api", "cloud_lifecycle".
std::string_view label_of(trigger_source source);
std::string_view label_of(error_kind kind);
std::string_view label_of(heartbeat_outcome outcome);
std::string_view label_of(completion_result result);
std::string_view label_of(publish_outcome outcome);

// How runner exits are counted: exit code 0, 1 or other; or a signal from a short list of
// the ones that end runners in practice, or other.
struct exit_label {
  std::string_view kind;  // "code" or "signal"
  std::string_view value;
};

inline constexpr std::size_t exit_label_count = 11;

const std::array<exit_label, exit_label_count>& exit_labels();

// The position in exit_labels() under which `status` is counted.
std::size_t exit_label_index(const exit_status& status);

}  // namespace runwarden
