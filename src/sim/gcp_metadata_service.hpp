#pragma once
// The simulated Google Compute Engine metadata server of a managed instance group's VMs, over
// the fleet world, as Google documents it ("View and query VM metadata", "Wait for a
// change", "Detect if a VM was preempted", "Query metadata server for maintenance event
// notices") and as tests/gcp/fake_gce_metadata.py follows it: GET /computeMetadata/v1/KEY
// with "Metadata-Flavor: Google" (403 without it), answered with the value, an ETag and
// "Metadata-Flavor: Google"; with ?wait_for_change=true the answer waits until the value's
// ETag differs from last_etag (at once if it already does), or until timeout_sec has passed,
// then gives the value unchanged. The group is "sim-fleet" in zone sim-a; a VM's
// maintenance-event stays NONE.

#include <cstddef>
#include <string>

#include "messages/http_messages.hpp"
#include "src/sim/fleet_world.hpp"

namespace runwarden {

inline constexpr std::string_view sim_gcp_endpoint = "http://gcp.sim";

class gcp_metadata_service {
 public:
  explicit gcp_metadata_service(fleet_world& world) : world_(world) {}

  // Holds a read that waits for a change its key has not had; true when held.
  bool hold(std::size_t instance, const http_request& request, sim_seconds now,
            const held_responder& later);
  // The answer now.
  http_response answer(std::size_t instance, const http_request& request) const;
  // The instance's values changed: held reads whose ETag differs are answered.
  void value_changed(std::size_t instance);
  // Held reads whose timeout_sec has passed are answered with their value unchanged.
  void answer_timed_out(sim_seconds now);

 private:
  fleet_world& world_;
};

}  // namespace runwarden
