// See azure_documents.hpp.
#include "src/azure/azure_documents.hpp"

#include <nlohmann/json.hpp>

#include "src/util/gmt_date.hpp"

namespace runwarden {

namespace {

using json = nlohmann::json;

constexpr std::string_view events_page = "scheduled events";

std::string where(std::size_t index) {
  return std::string{events_page} + " Events[" + std::to_string(index) + "]";
}

std::optional<std::string> text_field(const json& object, const std::string& place,
                                      const char* name, std::string& error) {
  const auto it = object.find(name);
  if (it == object.end() || !it->is_string()) {
    error = place + " has no \"" + name + "\" string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

azure_event_type type_of(std::string_view text) {
  for (const auto type :
       {azure_event_type::reboot, azure_event_type::redeploy, azure_event_type::freeze,
        azure_event_type::preempt, azure_event_type::terminate})
    if (to_string(type) == text) return type;
  return azure_event_type::other;
}

azure_event_status status_of(std::string_view text) {
  if (text == "Scheduled") return azure_event_status::scheduled;
  if (text == "Started") return azure_event_status::started;
  return azure_event_status::other;
}

std::optional<std::vector<std::string>> resources_of(const json& event, std::size_t index,
                                                     std::string& error) {
  const auto it = event.find("Resources");
  if (it == event.end() || !it->is_array()) {
    error = where(index) + " has no \"Resources\" list";
    return std::nullopt;
  }
  std::vector<std::string> resources;
  for (const auto& resource : *it) {
    if (!resource.is_string()) {
      error = where(index) + " \"Resources\" holds something other than names";
      return std::nullopt;
    }
    resources.push_back(resource.get<std::string>());
  }
  return resources;
}

std::optional<azure_event> read_event(const json& event, std::size_t index, std::string& error) {
  if (!event.is_object()) {
    error = where(index) + " is not an object";
    return std::nullopt;
  }
  azure_event read;
  auto id = text_field(event, where(index), "EventId", error);
  auto type = id ? text_field(event, where(index), "EventType", error) : std::nullopt;
  auto status = type ? text_field(event, where(index), "EventStatus", error) : std::nullopt;
  auto not_before = status ? text_field(event, where(index), "NotBefore", error) : std::nullopt;
  auto resources = not_before ? resources_of(event, index, error) : std::nullopt;
  if (!resources) return std::nullopt;
  if (id->empty()) {
    error = where(index) + " has an empty \"EventId\"";
    return std::nullopt;
  }
  if (!not_before->empty()) {
    read.not_before = parse_gmt_date(*not_before);
    if (!read.not_before) {
      error = where(index) +
              " \"NotBefore\" is not an RFC 1123 date such as \"Mon, 19 Sep "
              "2016 18:29:47 GMT\"";
      return std::nullopt;
    }
  }
  read.event_id = std::move(*id);
  read.type = type_of(*type);
  read.type_text = std::move(*type);
  read.status = status_of(*status);
  read.resources = std::move(*resources);
  if (const auto it = event.find("Description"); it != event.end() && it->is_string())
    read.description = it->get<std::string>();
  return read;
}

}  // namespace

std::string_view to_string(azure_event_type type) {
  switch (type) {
    case azure_event_type::reboot:
      return "Reboot";
    case azure_event_type::redeploy:
      return "Redeploy";
    case azure_event_type::freeze:
      return "Freeze";
    case azure_event_type::preempt:
      return "Preempt";
    case azure_event_type::terminate:
      return "Terminate";
    case azure_event_type::other:
      break;
  }
  return "other";
}

azure_events_parse parse_azure_scheduled_events(std::string_view body) {
  const json parsed = json::parse(body, nullptr, false);
  if (parsed.is_discarded())
    return {std::nullopt, std::string{events_page} + " is not JSON (an error page from a proxy?)"};
  if (!parsed.is_object())
    return {std::nullopt, std::string{events_page} + " is JSON but not an object"};
  const auto incarnation = parsed.find("DocumentIncarnation");
  if (incarnation == parsed.end() || !incarnation->is_number_integer())
    return {std::nullopt, std::string{events_page} + " has no \"DocumentIncarnation\" integer"};
  const auto events = parsed.find("Events");
  if (events == parsed.end() || !events->is_array())
    return {std::nullopt, std::string{events_page} + " has no \"Events\" list"};
  if (events->size() > azure_events_max)
    return {std::nullopt, std::string{events_page} + " lists " + std::to_string(events->size()) +
                              " events, more than " + std::to_string(azure_events_max)};
  azure_events_document document{incarnation->get<std::int64_t>(), {}};
  for (std::size_t index = 0; index < events->size(); ++index) {
    std::string error;
    auto event = read_event((*events)[index], index, error);
    if (!event) return {std::nullopt, std::move(error)};
    document.events.push_back(std::move(*event));
  }
  return {std::move(document), {}};
}

std::string azure_start_requests_body(const std::vector<std::string>& event_ids) {
  json requests = json::array();
  for (const auto& id : event_ids) requests.push_back({{"EventId", id}});
  return json{{"StartRequests", std::move(requests)}}.dump();
}

azure_compute_parse parse_azure_compute(std::string_view body) {
  constexpr std::string_view page = "instance compute metadata";
  const json parsed = json::parse(body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object())
    return {std::nullopt, std::string{page} + " is not a JSON object"};
  std::string error;
  auto name = text_field(parsed, std::string{page}, "name", error);
  if (!name || name->empty()) return {std::nullopt, std::string{page} + " has no \"name\" string"};
  azure_compute compute{std::move(*name), {}, {}};
  if (const auto it = parsed.find("resourceId"); it != parsed.end() && it->is_string())
    compute.resource_id = it->get<std::string>();
  if (const auto it = parsed.find("vmScaleSetName"); it != parsed.end() && it->is_string())
    compute.scale_set = it->get<std::string>();
  return {std::move(compute), {}};
}

}  // namespace runwarden
