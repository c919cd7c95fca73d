// See public_status.hpp. The texts are the words `runwarden ctl status --json` prints.
#include "src/embedding/public_status.hpp"

namespace runwarden {

namespace {

using embedded::instance_state;
using embedded::shutdown_phase;
using embedded::shutdown_trigger;

instance_state public_state(warden_status status) {
  switch (status) {
    case warden_status::starting:
      return instance_state::starting;
    case warden_status::running:
      return instance_state::running;
    case warden_status::shutting_down:
      return instance_state::shutting_down;
    case warden_status::gone:
      return instance_state::gone;
  }
  return instance_state::starting;
}

shutdown_phase public_phase(drain_phase phase) {
  switch (phase) {
    case drain_phase::none:
      return shutdown_phase::none;
    case drain_phase::waiting_for_runner:
      return shutdown_phase::waiting_for_runner;
    case drain_phase::draining:
      return shutdown_phase::draining;
    case drain_phase::forcing:
      return shutdown_phase::forcing;
    case drain_phase::killing:
      return shutdown_phase::killing;
    case drain_phase::unregistering:
      return shutdown_phase::unregistering;
    case drain_phase::completing:
      return shutdown_phase::completing;
    case drain_phase::done:
      return shutdown_phase::done;
  }
  return shutdown_phase::none;
}

shutdown_trigger public_trigger(trigger_source source) {
  switch (source) {
    case trigger_source::host:
      return shutdown_trigger::host;
    case trigger_source::signal_terminate:
      return shutdown_trigger::signal_terminate;
    case trigger_source::signal_interrupt:
      return shutdown_trigger::signal_interrupt;
    case trigger_source::signal_quit:
      return shutdown_trigger::signal_quit;
    case trigger_source::control_api:
      return shutdown_trigger::control_api;
    case trigger_source::cloud_lifecycle:
      return shutdown_trigger::cloud_lifecycle;
    case trigger_source::idle_scale_in:
      return shutdown_trigger::idle_scale_in;
    case trigger_source::spot_interruption:
      return shutdown_trigger::spot_interruption;
    case trigger_source::rebalance_recommendation:
      return shutdown_trigger::rebalance_recommendation;
    case trigger_source::ec2_scheduled_maintenance:
      return shutdown_trigger::ec2_scheduled_maintenance;
    case trigger_source::azure_preempt:
      return shutdown_trigger::azure_preempt;
    case trigger_source::azure_terminate:
      return shutdown_trigger::azure_terminate;
    case trigger_source::azure_reboot:
      return shutdown_trigger::azure_reboot;
    case trigger_source::azure_redeploy:
      return shutdown_trigger::azure_redeploy;
    case trigger_source::gcp_preemption:
      return shutdown_trigger::gcp_preemption;
    case trigger_source::gcp_host_maintenance:
      return shutdown_trigger::gcp_host_maintenance;
    case trigger_source::retirement:
      return shutdown_trigger::retirement;
    case trigger_source::replacement:
      return shutdown_trigger::replacement;
    case trigger_source::os_shutdown:
      return shutdown_trigger::os_shutdown;
  }
  return shutdown_trigger::host;
}

// The internal word that `to_public` maps to `word`, up to `last`: the text of a public word
// is its internal one's, found through the same switch.
template <class Internal, class Public>
Internal internal_of(Public word, Public (*to_public)(Internal), Internal last) {
  for (unsigned each = 0; each <= static_cast<unsigned>(last); ++each) {
    const auto candidate = static_cast<Internal>(each);
    if (to_public(candidate) == word) return candidate;
  }
  return last;
}

}  // namespace

embedded::status public_status(const warden_snapshot& snapshot) {
  const bool gone = snapshot.status == warden_status::gone;
  const bool unknown = gone && snapshot.exit_unknown;
  return {
      .version = snapshot.version,
      .state = public_state(snapshot.status),
      .phase = public_phase(snapshot.phase),
      .runner_pid = snapshot.runner_pid,
      .jobs_running = snapshot.jobs_running,
      .restarts_total = snapshot.restarts_total,
      .trigger = snapshot.trigger ? std::optional{public_trigger(*snapshot.trigger)} : std::nullopt,
      .reason = snapshot.reason,
      .exit_code = gone && !unknown ? snapshot.exit_code : std::nullopt,
      .exit_unknown = unknown};
}

}  // namespace runwarden

namespace runwarden::embedded {

std::string_view to_string(instance_state state) {
  return runwarden::to_string(internal_of(state, public_state, warden_status::gone));
}

std::string_view to_string(shutdown_phase phase) {
  return runwarden::to_string(internal_of(phase, public_phase, drain_phase::done));
}

std::string_view to_string(shutdown_trigger trigger) {
  return trigger_token(internal_of(trigger, public_trigger, trigger_source::os_shutdown));
}

}  // namespace runwarden::embedded
