#pragma once
// The EC2 scheduled maintenance events page, /latest/meta-data/events/maintenance/scheduled,
// as the AWS user guide documents it ("Scheduled events for your instances", "View scheduled
// events", instance metadata categories): a JSON list of events, each an object of strings
//
//   [{"NotBefore": "21 Jan 2019 09:00:43 GMT", "Code": "system-reboot",
//     "Description": "scheduled reboot", "EventId": "instance-event-0d59937288b749b32",
//     "NotAfter": "21 Jan 2019 09:17:23 GMT", "State": "active"}]
//
// Code is instance-reboot, system-reboot, system-maintenance, instance-retirement or
// instance-stop (EC2 API InstanceStatusEvent); State is active, canceled or completed.
// NotAfter may be absent (an instance-stop or retirement has no end). Parsed with
// nlohmann-json and checked field by field: a document with one bad event is refused whole,
// with an error naming the event and the field, never read in part.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/aws/imds/imds_documents.hpp"

namespace runwarden {

inline constexpr std::string_view imds_scheduled_events_path =
    "/latest/meta-data/events/maintenance/scheduled";

// More events than EC2 ever schedules at once for one instance; past it, the page is refused.
inline constexpr std::size_t scheduled_events_max = 64;

enum class scheduled_event_state : std::uint8_t { active, canceled, completed };

std::string_view to_string(scheduled_event_state state);

struct scheduled_event {
  std::string event_id;
  std::string code;  // kept as written: a code EC2 adds later is still reported
  scheduled_event_state state = scheduled_event_state::active;
  wall_time not_before;
  std::optional<wall_time> not_after;
  std::string description;
  friend bool operator==(const scheduled_event&, const scheduled_event&) = default;
};

struct scheduled_events_parse {
  std::optional<std::vector<scheduled_event>> events;  // set exactly when error is empty
  std::string error;
};

scheduled_events_parse parse_scheduled_events(std::string_view body);

}  // namespace runwarden
