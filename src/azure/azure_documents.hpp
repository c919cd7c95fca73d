#pragma once
// The two Azure Instance Metadata Service documents the Azure watcher reads, as Microsoft
// documents them, parsed with nlohmann-json and checked field by field:
//
// Scheduled Events for Linux VMs (api-version 2020-07-01), GET /metadata/scheduledevents:
//   {"DocumentIncarnation": 2,
//    "Events": [{"EventId": "C7061BAC-AFDC-4513-B24B-AA5F13A16123", "EventType": "Preempt",
//                "ResourceType": "VirtualMachine", "Resources": ["myvmss_2"],
//                "EventStatus": "Scheduled", "NotBefore": "Mon, 19 Sep 2016 18:29:47 GMT",
//                "Description": "...", "EventSource": "Platform", "DurationInSeconds": -1}]}
//   EventType is Reboot, Redeploy, Freeze, Preempt or Terminate; EventStatus Scheduled or
//   Started; NotBefore (RFC 1123) may be "" once an event has started. A type or status
//   Azure adds later is kept as "other", reported, and never acted on, so that one new word
//   cannot hide a Preempt in the same document.
// Approval: POST /metadata/scheduledevents with {"StartRequests": [{"EventId": "..."}]}.
//
// Instance metadata, GET /metadata/instance/compute (api-version 2021-02-01): an object of
//   which runwarden reads "name" (what Scheduled Events' Resources name), "resourceId" and
//   "vmScaleSetName" (empty outside a scale set).
//
// Every request carries "Metadata: true"; requests with X-Forwarded-For are refused by the
// service, and runwarden never sends one.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/aws/imds/imds_documents.hpp"

namespace runwarden {

inline constexpr std::string_view azure_scheduled_events_path =
    "/metadata/scheduledevents?api-version=2020-07-01";
inline constexpr std::string_view azure_compute_path =
    "/metadata/instance/compute?api-version=2021-02-01";
inline constexpr std::string_view azure_metadata_header = "Metadata";
// More events than one document ever holds; past it, the document is refused.
inline constexpr std::size_t azure_events_max = 64;

enum class azure_event_type : std::uint8_t { reboot, redeploy, freeze, preempt, terminate, other };
enum class azure_event_status : std::uint8_t { scheduled, started, other };

std::string_view to_string(azure_event_type type);

struct azure_event {
  std::string event_id;
  azure_event_type type = azure_event_type::other;
  std::string type_text;  // as written, for reports
  std::vector<std::string> resources;
  azure_event_status status = azure_event_status::other;
  std::optional<wall_time> not_before;  // none once started
  std::string description;
  friend bool operator==(const azure_event&, const azure_event&) = default;
};

struct azure_events_document {
  std::int64_t incarnation = 0;
  std::vector<azure_event> events;
};

struct azure_events_parse {
  std::optional<azure_events_document> document;  // set exactly when error is empty
  std::string error;
};

azure_events_parse parse_azure_scheduled_events(std::string_view body);

// The body that approves the events: {"StartRequests": [{"EventId": ...}, ...]}.
std::string azure_start_requests_body(const std::vector<std::string>& event_ids);

struct azure_compute {
  std::string name;
  std::string resource_id;
  std::string scale_set;
};

struct azure_compute_parse {
  std::optional<azure_compute> compute;  // set exactly when error is empty
  std::string error;
};

azure_compute_parse parse_azure_compute(std::string_view body);

}  // namespace runwarden
