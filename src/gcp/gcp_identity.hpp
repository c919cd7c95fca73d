#pragma once
// Who this Google Compute Engine instance is, from four metadata keys, for the log: its id,
// its name, its zone (served as "projects/NUMBER/zones/ZONE") and, when a managed instance
// group created it, the group (instance/attributes/created-by, served as
// "projects/NUMBER/zones/ZONE/instanceGroupManagers/NAME", or .../regions/REGION/... for a
// regional group; absent, 404, otherwise).

#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

inline constexpr std::string_view gcp_identity_keys[] = {
    "instance/id", "instance/name", "instance/zone", "instance/attributes/created-by"};

struct gcp_identity {
  std::string instance_id;
  std::string name;
  std::string zone_path;   // as served
  std::string created_by;  // as served; empty outside a managed instance group
};

// "instance 4928 (runner-abcd) in us-central1-a, managed instance group runners"; a part
// not known is left out.
std::string describe(const gcp_identity& identity);

}  // namespace runwarden
