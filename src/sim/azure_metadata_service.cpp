// See azure_metadata_service.hpp.
#include "src/sim/azure_metadata_service.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/util/gmt_date.hpp"

namespace runwarden {

namespace {

using json = nlohmann::json;

constexpr std::string_view events_path = "/metadata/scheduledevents";
constexpr std::string_view compute_path = "/metadata/instance/compute";

http_response json_answer(int status, const json& body) {
  return {.status_code = status,
          .body = body.dump(),
          .headers = {{"content-type", "application/json; charset=utf-8"}}};
}

http_response bad_request(std::string_view why) {
  return json_answer(400, {{"error", "Bad request. " + std::string{why}}});
}

bool has_metadata_header(const http_request& request) {
  return std::any_of(request.headers.begin(), request.headers.end(), [](const auto& header) {
    return header.first == "Metadata" && header.second == "true";
  });
}

// The EventIds of a StartRequests body; nullopt when it is not one.
std::optional<std::vector<std::string>> start_requests(const std::string& body) {
  const auto parsed = json::parse(body, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("StartRequests") ||
      !parsed["StartRequests"].is_array())
    return std::nullopt;
  std::vector<std::string> ids;
  for (const auto& request : parsed["StartRequests"]) {
    if (!request.is_object() || !request.contains("EventId") || !request["EventId"].is_string())
      return std::nullopt;
    ids.push_back(request["EventId"].get<std::string>());
  }
  return ids;
}

}  // namespace

http_response azure_metadata_service::answer(std::size_t instance, const http_request& request,
                                             sim_seconds now) {
  if (!has_metadata_header(request)) return bad_request("Required metadata header not specified");
  auto path = std::string_view{request.url}.substr(sim_azure_endpoint.size());
  const auto question = path.find('?');
  if (question == std::string_view::npos ||
      path.substr(question + 1).find("api-version=") == std::string_view::npos)
    return bad_request("api-version was not specified in the request");
  path = path.substr(0, question);
  if (path == compute_path && request.method == "GET") {
    const auto& id = world_.instances_[instance].id;
    return json_answer(200, {{"name", id},
                             {"resourceId",
                              "/subscriptions/00000000-0000-0000-0000-000000000000/"
                              "resourceGroups/sim/providers/Microsoft.Compute/"
                              "virtualMachineScaleSets/sim-fleet/virtualMachines/" +
                                  id},
                             {"vmScaleSetName", "sim-fleet"}});
  }
  if (path != events_path) return json_answer(404, {{"error", "Not found"}});
  if (request.method == "GET") return events_document();
  return approve(instance, request.body, now);
}

http_response azure_metadata_service::events_document() const {
  json events = json::array();
  for (const auto& instance : world_.instances_) {
    const auto& event = instance.terminate_action;
    if (instance.gone || !event || event->event_id.empty()) continue;
    const bool started = event->ended.has_value();
    events.push_back(
        {{"EventId", event->event_id},
         {"EventType", event->hook},
         {"ResourceType", "VirtualMachine"},
         {"Resources", json::array({instance.id})},
         {"EventStatus", started ? "Started" : "Scheduled"},
         {"NotBefore", started ? "" : format_gmt_date(sim_wall_time(event->global_deadline))},
         {"Description",
          event->hook == "Preempt" ? "Spot VM eviction" : "Virtual machine scale set scale-in"},
         {"EventSource", event->hook == "Preempt" ? "Platform" : "User"},
         {"DurationInSeconds", -1}});
  }
  return json_answer(
      200, {{"DocumentIncarnation", world_.azure_incarnation_}, {"Events", std::move(events)}});
}

http_response azure_metadata_service::approve(std::size_t approver, const std::string& body,
                                              sim_seconds now) {
  const auto ids = start_requests(body);
  if (!ids || ids->empty()) return bad_request("StartRequests expected");
  std::vector<std::size_t> owners;
  for (const auto& id : *ids) {
    const auto& instances = world_.instances_;
    const auto owner = std::find_if(instances.begin(), instances.end(), [&](const auto& vm) {
      return !vm.gone && vm.terminate_action && vm.terminate_action->event_id == id;
    });
    if (owner == instances.end()) return bad_request("Unknown EventId");
    owners.push_back(static_cast<std::size_t>(owner - instances.begin()));
  }
  for (const auto owner : owners) world_.azure_approved(approver, owner, now);
  return json_answer(200, json::object());
}

}  // namespace runwarden
