#pragma once
// What the Google Compute Engine metadata server's two warning keys mean for the runner,
// as Google documents them ("Detect if a VM was preempted", "Query metadata server for
// maintenance event notices"):
//
//   instance/preempted          FALSE ─▶ nothing
//                               TRUE  ─▶ trigger gcp_preemption, deadline now + the
//                                        preemption deadline (Compute Engine stops the VM
//                                        about 30 s after it sets this), once
//   instance/maintenance-event  NONE ─▶ nothing (said when a notice ends)
//                               MIGRATE_ON_HOST_MAINTENANCE ─▶ logged: a live migration
//                                        leaves the runner running
//                               TERMINATE_ON_HOST_MAINTENANCE ─▶ trigger
//                                        gcp_host_maintenance, deadline now + the configured
//                                        host maintenance deadline, once
//   anything else ─▶ warned once per value, never a trigger
//
// Pure: the wall-clock time comes in as an argument.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "src/aws/imds/lifecycle_watch.hpp"

namespace runwarden {

inline constexpr std::string_view gcp_preempted_key = "instance/preempted";
inline constexpr std::string_view gcp_maintenance_event_key = "instance/maintenance-event";

// Distinct unknown values warned about; past this, further ones are not.
inline constexpr std::size_t gcp_unknown_values_warned_max = 8;

struct gcp_notice_policy {
  // From the moment instance/preempted turns TRUE. Compute Engine sends the ACPI soft-off
  // at once and stops the VM about 30 s later; this leaves a few seconds of those.
  std::chrono::milliseconds preemption_deadline{std::chrono::seconds{25}};
  // From the moment TERMINATE_ON_HOST_MAINTENANCE shows: the notice comes 60 s ahead
  // (60 minutes for VMs with GPUs, where a longer deadline may be set).
  std::chrono::milliseconds host_maintenance_deadline{std::chrono::seconds{50}};
  friend bool operator==(const gcp_notice_policy&, const gcp_notice_policy&) = default;
};

class gcp_notice_watch {
 public:
  explicit gcp_notice_watch(gcp_notice_policy policy);

  watch_outcome on_preempted(std::string_view value, wall_time now);
  watch_outcome on_maintenance_event(std::string_view value, wall_time now);

 private:
  void warn_unknown(std::string_view key, std::string_view value, watch_outcome& outcome);

  gcp_notice_policy policy_;
  bool preemption_latched_ = false;
  bool termination_latched_ = false;
  std::string last_maintenance_event_ = "NONE";
  std::vector<std::string> unknown_values_warned_;  // at most gcp_unknown_values_warned_max
};

}  // namespace runwarden
