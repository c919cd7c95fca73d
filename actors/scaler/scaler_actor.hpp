#pragma once
// The scaler: scales the Auto Scaling group from this runner's own load. Thin: it turns the
// warden's snapshots (jobs running, status) and its own wake-ups into events for the
// scaling machine (src/scaling/scaling_machine.hpp) and carries out its decisions through
// the Auto Scaling client (messages/autoscaling_messages.hpp), which signs, sends and
// retries within a budget. It owns no socket and reads no wall clock, so tests script the
// client and run it in virtual time.
//
// Why the warden's snapshots and not the metrics poller: the snapshot carries the job count
// the poller reported and, in the same message, whether a drain has begun, after which the
// scaler must never give the instance up or protect it again; one subscription gives both,
// in the order the warden saw them, and the load the scaler acts on is the load status shows.
//
// Reading the group: DescribeAutoScalingInstances for this instance finds its group once;
// then every decision reads DescribeAutoScalingGroups fresh. Every decision is logged with
// its reason and reported to the observer (for /metrics), as is every failed call.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/autoscaling_messages.hpp"
#include "messages/warden_messages.hpp"
#include "src/scaling/scaling_decision_text.hpp"
#include "src/scaling/scaling_machine.hpp"

namespace runwarden {

struct scaling_observer {
  std::function<void(scaling_decision_kind)> decided;                       // may be empty
  std::function<void(scaling_call, autoscaling_failure_kind)> call_failed;  // may be empty
};

struct scaler_wiring {
  scaling_policy policy;  // capacity resolved
  std::uint64_t random_seed = 0;
  autoscaling_client_actor autoscaling_client;
  status_source_actor warden;  // subscribed to for warden_snapshot
  // Each call's retry budget at the client; a scaling decision that waits longer is stale.
  std::chrono::milliseconds call_budget{std::chrono::seconds{20}};
  scaling_observer observer = {};
};

struct scaler_state {
  static inline const char* name = "scaler";
  scaler_wiring wiring;
  scaling_state machine;
  std::optional<std::string> instance_id;  // the machine is fed only once this is known
  std::optional<load_observed> load_before_identity;
  std::optional<std::string> group_name;  // found once, from this instance
  std::optional<instant> wake_armed_for;  // the earliest wake-up armed and not yet fired
  std::uint32_t identity_failures = 0;
};

// What the scaler's peers may send it: the warden's status, which it subscribed to.
using scaler_actor = status_subscriber_actor;

// The scaler as it runs: besides, (scaler_wake_atom) when a wake-up the scaling machine asked
// for is due, and (scaler_identity_atom) when asking the client for the identity again is.
using scaler_wake_atom = caf::atom_constant<caf::atom("scalewake")>;
using scaler_identity_atom = caf::atom_constant<caf::atom("scaleid")>;
using scaler_implementation =
    scaler_actor::extend<caf::reacts_to<scaler_wake_atom>, caf::reacts_to<scaler_identity_atom>>;

scaler_implementation::behavior_type scaler_behavior(
    scaler_implementation::stateful_pointer<scaler_state> self, scaler_wiring wiring);

}  // namespace runwarden
