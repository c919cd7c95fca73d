#pragma once
// What Azure's Scheduled Events mean for the runner, as Microsoft documents them
// ("Azure Metadata Service: Scheduled Events for Linux VMs"): only events whose Resources
// name this machine (its compute name) count; each counts once, by EventId.
//
//   Preempt (a Spot eviction, at least 30 s ahead)       ─▶ trigger azure_preempt
//   Terminate (a scale-in with a terminate notification) ─▶ trigger azure_terminate
//   Reboot, Redeploy ─▶ trigger azure_reboot / azure_redeploy when configured to drain,
//                       else a warning
//   Freeze (a pause of seconds) and types Azure adds later ─▶ a warning
// A drained event's deadline is NotBefore minus the margin (at once when it has started
// already), and it is handed on as an approval to give: once the runner is gone and
// unregistered, StartRequests with its EventId lets Azure go on at once instead of waiting
// out NotBefore. A document whose DocumentIncarnation did not change is not read again. A
// document that fails is reported when its problem changes. Pure: the wall-clock time
// comes in as an argument.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/aws/imds/lifecycle_watch.hpp"
#include "src/azure/azure_documents.hpp"

namespace runwarden {

// Event ids remembered; past this, the oldest are forgotten (an event lives minutes).
inline constexpr std::size_t azure_events_remembered_max = 256;

enum class azure_optional_action : std::uint8_t { log, drain };

std::string_view to_string(azure_optional_action action);
std::optional<azure_optional_action> parse_azure_optional_action(std::string_view text);

struct azure_event_policy {
  // Subtracted from NotBefore for the drain's deadline: room for the forceful signal and
  // SIGKILL before Azure acts (a Preempt gives 30 s in all).
  std::chrono::milliseconds margin{std::chrono::seconds{5}};
  azure_optional_action reboot = azure_optional_action::log;
  azure_optional_action redeploy = azure_optional_action::log;
  friend bool operator==(const azure_event_policy&, const azure_event_policy&) = default;
};

// An event runwarden drains for and approves once the runner is gone.
struct azure_approval {
  std::string event_id;
  wall_time not_before;  // Azure goes on by then, approved or not
  friend bool operator==(const azure_approval&, const azure_approval&) = default;
};

struct azure_watch_outcome {
  std::vector<lifecycle_trigger> triggers;
  std::vector<azure_approval> approvals;  // one per trigger, in the same order
  std::vector<watch_report> reports;
};

class azure_event_watch {
 public:
  azure_event_watch(azure_event_policy policy, std::string compute_name);

  azure_watch_outcome on_document(const imds_answer& answer, wall_time now);

 private:
  void consider(const azure_event& event, wall_time now, azure_watch_outcome& outcome);
  bool names_this_machine(const azure_event& event) const;
  void remember(const std::string& event_id);

  azure_event_policy policy_;
  std::string compute_name_;
  std::optional<std::int64_t> incarnation_;  // of the last document read
  std::vector<std::string> known_;           // EventIds seen, oldest first; bounded
  std::string problem_kind_;                 // empty while the document reads as expected
};

}  // namespace runwarden
