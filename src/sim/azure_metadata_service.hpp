#pragma once
// The simulated Azure Instance Metadata Service of a scale set's VMs, over the fleet world, as
// Microsoft documents it ("Azure Instance Metadata Service", "Scheduled Events for Linux
// VMs") and as tests/azure/fake_azure_metadata.py follows it: every request needs
// "Metadata: true" and an api-version (400 otherwise);
//   GET /metadata/instance/compute: the VM's name (its instance id), resourceId and
//       vmScaleSetName "sim-fleet";
//   GET /metadata/scheduledevents: {"DocumentIncarnation": N, "Events": [...]} with the
//       events of every VM of the placement group (the whole scale set here), each naming
//       its VM in Resources, N growing whenever the list changes;
//   POST /metadata/scheduledevents {"StartRequests": [{"EventId": ...}]}: approves the
//       events (Started, NotBefore ""); an EventId not in the document fails the POST, 400.

#include <cstddef>
#include <string_view>

#include "messages/http_messages.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

inline constexpr std::string_view sim_azure_endpoint = "http://azure.sim";

class azure_metadata_service {
 public:
  explicit azure_metadata_service(fleet_world& world) : world_(world) {}

  http_response answer(std::size_t instance, const http_request& request, sim_seconds now);

 private:
  http_response events_document() const;
  http_response approve(std::size_t approver, const std::string& body, sim_seconds now);

  fleet_world& world_;
};

}  // namespace runwarden
