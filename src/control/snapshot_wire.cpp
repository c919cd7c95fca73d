// See snapshot_wire.hpp.
#include "src/control/snapshot_wire.hpp"

#include <google/protobuf/util/time_util.h>

namespace runwarden {

namespace {

using google::protobuf::util::TimeUtil;

v1::State state_of(warden_status status) {
  switch (status) {
    case warden_status::starting:
      return v1::STATE_STARTING;
    case warden_status::running:
      return v1::STATE_RUNNING;
    case warden_status::shutting_down:
      return v1::STATE_SHUTTING_DOWN;
    case warden_status::gone:
      return v1::STATE_GONE;
  }
  return v1::STATE_UNSPECIFIED;
}

v1::DrainPhase phase_of(drain_phase phase) {
  switch (phase) {
    case drain_phase::none:
      return v1::DRAIN_PHASE_NONE;
    case drain_phase::waiting_for_runner:
      return v1::DRAIN_PHASE_WAITING_FOR_RUNNER;
    case drain_phase::draining:
      return v1::DRAIN_PHASE_DRAINING;
    case drain_phase::forcing:
      return v1::DRAIN_PHASE_FORCING;
    case drain_phase::killing:
      return v1::DRAIN_PHASE_KILLING;
    case drain_phase::unregistering:
      return v1::DRAIN_PHASE_UNREGISTERING;
    case drain_phase::completing:
      return v1::DRAIN_PHASE_COMPLETING;
    case drain_phase::done:
      return v1::DRAIN_PHASE_DONE;
  }
  return v1::DRAIN_PHASE_UNSPECIFIED;
}

v1::Trigger trigger_of(trigger_source source) {
  switch (source) {
    case trigger_source::signal_terminate:
      return v1::TRIGGER_SIGNAL_TERMINATE;
    case trigger_source::signal_interrupt:
      return v1::TRIGGER_SIGNAL_INTERRUPT;
    case trigger_source::signal_quit:
      return v1::TRIGGER_SIGNAL_QUIT;
    case trigger_source::control_api:
      return v1::TRIGGER_CONTROL_API;
    case trigger_source::cloud_lifecycle:
      return v1::TRIGGER_CLOUD_LIFECYCLE;
    case trigger_source::idle_scale_in:
      return v1::TRIGGER_IDLE_SCALE_IN;
    case trigger_source::spot_interruption:
      return v1::TRIGGER_SPOT_INTERRUPTION;
    case trigger_source::rebalance_recommendation:
      return v1::TRIGGER_REBALANCE_RECOMMENDATION;
    case trigger_source::ec2_scheduled_maintenance:
      return v1::TRIGGER_EC2_SCHEDULED_MAINTENANCE;
    case trigger_source::azure_preempt:
      return v1::TRIGGER_AZURE_PREEMPT;
    case trigger_source::azure_terminate:
      return v1::TRIGGER_AZURE_TERMINATE;
    case trigger_source::azure_reboot:
      return v1::TRIGGER_AZURE_REBOOT;
    case trigger_source::azure_redeploy:
      return v1::TRIGGER_AZURE_REDEPLOY;
    case trigger_source::gcp_preemption:
      return v1::TRIGGER_GCP_PREEMPTION;
    case trigger_source::gcp_host_maintenance:
      return v1::TRIGGER_GCP_HOST_MAINTENANCE;
    case trigger_source::host:
      return v1::TRIGGER_HOST;
    case trigger_source::retirement:
      return v1::TRIGGER_RETIREMENT;
    case trigger_source::replacement:
      return v1::TRIGGER_REPLACEMENT;
    case trigger_source::os_shutdown:
      return v1::TRIGGER_OS_SHUTDOWN;
  }
  return v1::TRIGGER_UNSPECIFIED;
}

// Converts instants of the actor clock against the moment the snapshot was taken.
class wall_clock_view {
 public:
  wall_clock_view(instant taken, std::chrono::system_clock::time_point wall_now)
      : taken_(taken), wall_now_(wall_now) {}

  // To the nearest millisecond: the two clocks are read a few hundred nanoseconds apart, and
  // a deadline set at a whole second (a spot notice's) must read as that second, not
  // ".000000221Z".
  google::protobuf::Timestamp timestamp_of(instant at) const {
    const auto wall =
        wall_now_ - std::chrono::duration_cast<std::chrono::system_clock::duration>(taken_ - at);
    return TimeUtil::MillisecondsToTimestamp(
        std::chrono::round<std::chrono::milliseconds>(wall.time_since_epoch()).count());
  }

 private:
  instant taken_;
  std::chrono::system_clock::time_point wall_now_;
};

void set_exit(const warden_snapshot& snapshot, v1::StatusResponse& response) {
  if (snapshot.last_exit) {
    auto& last_exit = *response.mutable_last_exit();
    last_exit.set_signaled(snapshot.last_exit->signaled);
    last_exit.set_value(snapshot.last_exit->value);
    last_exit.set_unknown(snapshot.last_exit->unknown);
    last_exit.set_text(to_string(*snapshot.last_exit));
  }
  if (snapshot.exit_code) response.mutable_exit_code()->set_value(*snapshot.exit_code);
  response.set_exit_reason(snapshot.exit_reason);
}

}  // namespace

v1::StatusResponse status_response_of(const warden_snapshot& snapshot,
                                      std::chrono::system_clock::time_point wall_now) {
  const wall_clock_view clock{snapshot.now, wall_now};
  v1::StatusResponse response;
  response.set_state(state_of(snapshot.status));
  response.set_drain_phase(phase_of(snapshot.phase));
  response.set_runner_pid(snapshot.runner_pid.value_or(0));
  if (snapshot.jobs_running) response.mutable_jobs_running()->set_value(*snapshot.jobs_running);
  response.set_runner_state(snapshot.runner_state);
  for (const auto& job : snapshot.reported_jobs) response.add_reported_jobs(job);
  response.set_restarts(snapshot.restarts_total);
  *response.mutable_state_since() = clock.timestamp_of(snapshot.status_since);
  if (snapshot.drain_started_at)
    *response.mutable_drain_started_at() = clock.timestamp_of(*snapshot.drain_started_at);
  if (snapshot.drain_deadline)
    *response.mutable_deadline() = clock.timestamp_of(*snapshot.drain_deadline);
  if (snapshot.trigger) response.set_trigger(trigger_of(*snapshot.trigger));
  response.set_reason(snapshot.reason);
  response.set_lifecycle_hook(snapshot.lifecycle_hook.value_or(""));
  response.set_unregistration(snapshot.unregistration);
  response.set_instance_lifecycle_state(snapshot.auto_scaling_lifecycle_state);
  set_exit(snapshot, response);
  response.set_version(snapshot.version);
  *response.mutable_observed_at() = clock.timestamp_of(snapshot.now);
  return response;
}

}  // namespace runwarden
