#pragma once
// What EC2's scheduled maintenance events mean for the runner. The page is read
// on its own cadence (aws.scheduled_events_interval); each read and each due time goes
// through here with the wall-clock time, and what comes out is at most one trigger per
// event, reports, and when to look again without reading.
//
//   per event code, the configured action:
//     drain        ─▶ trigger ec2_scheduled_maintenance at once, deadline NotBefore - margin
//                     (once that has passed: NotAfter - margin, or none; see deadline_of)
//     drain_ahead  ─▶ the same trigger, once NotBefore - lead_time has come (a due time is
//                     returned so that the watcher wakes for it between reads)
//     log          ─▶ a warning, once per event
//   State canceled or completed before its drain started ─▶ dropped, said once; a drain once
//   started is never undone (the drain machine has no way back), the cancel is only said.
//
// A page that fails is reported when its problem changes, as the other pages are. Pure: no
// clock, no I/O.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/aws/imds/lifecycle_watch.hpp"
#include "src/aws/imds/scheduled_events.hpp"

namespace runwarden {

// Event ids remembered; an instance has a handful of events at most, so past this the oldest
// settled ones are forgotten first.
inline constexpr std::size_t scheduled_events_remembered_max = 256;

enum class scheduled_event_action : std::uint8_t { drain, drain_ahead, log };

std::string_view to_string(scheduled_event_action action);
std::optional<scheduled_event_action> parse_scheduled_event_action(std::string_view text);

struct scheduled_event_policy {
  // By code, as EC2 writes it. An instance-stop or retirement takes the runner's machine;
  // a reboot ends its process, so its drain starts lead_time before; system-maintenance
  // usually leaves the instance running (network or power work), so it is only logged.
  std::map<std::string, scheduled_event_action, std::less<>> actions{
      {"instance-stop", scheduled_event_action::drain},
      {"instance-retirement", scheduled_event_action::drain},
      {"instance-reboot", scheduled_event_action::drain_ahead},
      {"system-reboot", scheduled_event_action::drain_ahead},
      {"system-maintenance", scheduled_event_action::log},
  };
  // A code not in `actions` (one EC2 adds later).
  scheduled_event_action other_codes = scheduled_event_action::log;
  // The drain's deadline is NotBefore minus this: room for the forceful signal, the kill
  // timeout and unregistering before EC2 acts.
  std::chrono::milliseconds margin{std::chrono::seconds{30}};
  // drain_ahead starts the drain this long before NotBefore (aws-node-termination-handler's
  // 120 s).
  std::chrono::milliseconds lead_time{std::chrono::seconds{120}};
  friend bool operator==(const scheduled_event_policy&, const scheduled_event_policy&) = default;
};

struct scheduled_watch_outcome {
  std::vector<lifecycle_trigger> triggers;
  std::vector<watch_report> reports;
  // The earliest drain_ahead start still to come: look again (due()) then.
  std::optional<wall_time> next_due;
};

class scheduled_event_watch {
 public:
  explicit scheduled_event_watch(scheduled_event_policy policy);

  // The page's answer, read at wall-clock time `now`.
  scheduled_watch_outcome on_page(const imds_answer& answer, wall_time now);
  // A due time returned earlier has come.
  scheduled_watch_outcome due(wall_time now);

  const scheduled_event_policy& policy() const { return policy_; }

 private:
  enum class progress : std::uint8_t { noticed, drained, dropped };
  struct known_event {
    scheduled_event event;
    scheduled_event_action action;
    progress step = progress::noticed;
  };

  void consider(const scheduled_event& event, scheduled_watch_outcome& outcome);
  void start_due_drains(wall_time now, scheduled_watch_outcome& outcome);
  scheduled_event_action action_for(std::string_view code) const;
  std::optional<wall_time> deadline_of(const scheduled_event& event, wall_time now) const;
  void forget_settled_beyond_limit();

  scheduled_event_policy policy_;
  std::map<std::string, known_event, std::less<>> known_;  // by EventId
  std::vector<std::string> order_;                         // EventIds, first seen first
  std::string problem_kind_;                               // empty while the page reads as expected
};

}  // namespace runwarden
