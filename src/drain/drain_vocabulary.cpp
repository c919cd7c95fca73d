// See drain_vocabulary.hpp.
#include "src/drain/drain_vocabulary.hpp"

#include <string>

namespace runwarden {

std::string_view to_string(warden_status status) {
  switch (status) {
    case warden_status::starting:
      return "starting";
    case warden_status::running:
      return "running";
    case warden_status::shutting_down:
      return "shutting_down";
    case warden_status::gone:
      return "gone";
  }
  return "unknown";
}

std::string_view to_string(trigger_source source) {
  switch (source) {
    case trigger_source::signal_terminate:
      return "SIGTERM";
    case trigger_source::signal_interrupt:
      return "SIGINT";
    case trigger_source::signal_quit:
      return "SIGQUIT";
    case trigger_source::control_api:
      return "control API";
    case trigger_source::cloud_lifecycle:
      return "cloud lifecycle";
    case trigger_source::idle_scale_in:
      return "idle scale-in";
    case trigger_source::spot_interruption:
      return "spot interruption";
    case trigger_source::rebalance_recommendation:
      return "rebalance recommendation";
    case trigger_source::ec2_scheduled_maintenance:
      return "EC2 scheduled maintenance";
    case trigger_source::azure_preempt:
      return "Azure Preempt";
    case trigger_source::azure_terminate:
      return "Azure Terminate";
    case trigger_source::azure_reboot:
      return "Azure Reboot";
    case trigger_source::azure_redeploy:
      return "Azure Redeploy";
    case trigger_source::gcp_preemption:
      return "Google Cloud preemption";
    case trigger_source::gcp_host_maintenance:
      return "Google Cloud host maintenance";
    case trigger_source::host:
      return "the host program";
    case trigger_source::retirement:
      return "retirement";
    case trigger_source::replacement:
      return "replacement (marked unhealthy)";
    case trigger_source::os_shutdown:
      return "the operating system's shutdown";
  }
  return "unknown";
}

std::string_view trigger_token(trigger_source source) {
  switch (source) {
    case trigger_source::signal_terminate:
      return "sigterm";
    case trigger_source::signal_interrupt:
      return "sigint";
    case trigger_source::signal_quit:
      return "sigquit";
    case trigger_source::control_api:
      return "control_api";
    case trigger_source::cloud_lifecycle:
      return "cloud_lifecycle";
    case trigger_source::idle_scale_in:
      return "idle_scale_in";
    case trigger_source::spot_interruption:
      return "spot_interruption";
    case trigger_source::rebalance_recommendation:
      return "rebalance_recommendation";
    case trigger_source::ec2_scheduled_maintenance:
      return "ec2_scheduled_maintenance";
    case trigger_source::azure_preempt:
      return "azure_preempt";
    case trigger_source::azure_terminate:
      return "azure_terminate";
    case trigger_source::azure_reboot:
      return "azure_reboot";
    case trigger_source::azure_redeploy:
      return "azure_redeploy";
    case trigger_source::gcp_preemption:
      return "gcp_preemption";
    case trigger_source::gcp_host_maintenance:
      return "gcp_host_maintenance";
    case trigger_source::host:
      return "host";
    case trigger_source::retirement:
      return "retirement";
    case trigger_source::replacement:
      return "replacement";
    case trigger_source::os_shutdown:
      return "os_shutdown";
  }
  return "unknown";
}

std::string_view to_string(timer_kind kind) {
  switch (kind) {
    case timer_kind::restart_backoff:
      return "restart_backoff";
    case timer_kind::drain_deadline:
      return "drain_deadline";
    case timer_kind::kill_timeout:
      return "kill_timeout";
    case timer_kind::lifecycle_heartbeat:
      return "lifecycle_heartbeat";
    case timer_kind::lifecycle_expiry:
      return "lifecycle_expiry";
    case timer_kind::runner_start_grace:
      return "runner_start_grace";
    case timer_kind::unregistration_last_attempt:
      return "unregistration_last_attempt";
    case timer_kind::unregistration_alert:
      return "unregistration_alert";
  }
  return "unknown";
}

std::string_view to_string(lifecycle_result result) {
  switch (result) {
    case lifecycle_result::proceed:
      return "CONTINUE";
    case lifecycle_result::abandon:
      return "ABANDON";
  }
  return "unknown";
}

std::string_view to_string(signal_purpose purpose) {
  switch (purpose) {
    case signal_purpose::graceful:
      return "graceful";
    case signal_purpose::forceful:
      return "forceful";
    case signal_purpose::kill:
      return "kill";
    case signal_purpose::reload:
      return "reload";
  }
  return "unknown";
}

std::string_view to_string(notification_kind kind) {
  switch (kind) {
    case notification_kind::drain_started:
      return "drain_started";
    case notification_kind::gone:
      return "gone";
    case notification_kind::unregistration_failing:
      return "unregistration_failing";
    case notification_kind::hook_expiring:
      return "hook_expiring";
    case notification_kind::restart_budget_spent:
      return "restart_budget_spent";
  }
  return "unknown";
}

bool is_operator_signal(trigger_source source) {
  return source == trigger_source::signal_terminate || source == trigger_source::signal_interrupt ||
         source == trigger_source::signal_quit;
}

bool calls_for_lifecycle_lookup(trigger_source source) {
  return source == trigger_source::cloud_lifecycle || source == trigger_source::spot_interruption;
}

}  // namespace runwarden
