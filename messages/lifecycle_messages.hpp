#pragma once
// The cloud watchers' vocabulary (their typed interfaces and the views of the warden they
// hold are in lifecycle_client_messages.hpp). The EC2 watcher polls the instance metadata
// service and tells its listener (the warden) two things:
//
//   lifecycle_trigger  a drain is called for: source (cloud_lifecycle, spot_interruption or
//                      rebalance_recommendation), an optional deadline in wall-clock time
//                      (spot: the notice time minus the safety margin) and a reason. Once
//                      per latch: a level seen again on the next poll sends nothing.
//                      as_shutdown_request() (src/aws/imds/lifecycle_trigger_request.hpp)
//                      turns it into the drain machine's event on the machine's clock.
//   instance_identity  instance id, region and account id, once, when first read.
//
// The lifecycle hooks actor tells the same listener instance_group once it has found the
// Auto Scaling group of this instance (for webhooks and status), and again whenever it reads
// a new LifecycleState for it (status shows it: Terminating:Retained above all).
//
// Internally the EC2 watcher sends itself (imds_poll_atom) every poll interval,
// (imds_retry_atom) when a token or identity retry is due and (scheduled_due_atom) when
// an EC2 scheduled event's drain is due to start, and gets http_response from its HTTP
// port. The messages never leave the process, so they are unsafe local types.

#include <string>

#include "caf/all.hpp"
#include "src/aws/imds/imds_documents.hpp"
#include "src/aws/imds/lifecycle_watch.hpp"

namespace runwarden {

struct instance_group {
  std::string instance_id;
  std::string group_name;
  std::string lifecycle_state = {};  // as DescribeAutoScalingInstances last said
};

using imds_poll_atom = caf::atom_constant<caf::atom("imdspoll")>;
using imds_retry_atom = caf::atom_constant<caf::atom("imdsretry")>;
// A drain_ahead of an EC2 scheduled event is due (scheduled_event_watch's next_due).
using scheduled_due_atom = caf::atom_constant<caf::atom("schedldue")>;
// The Google Cloud watcher's backoff for one metadata key (named by the string) is over.
using gcp_retry_atom = caf::atom_constant<caf::atom("gcpretry")>;
// The Azure watcher's poll tick, and its backoff for the compute read or an approval.
using azure_poll_atom = caf::atom_constant<caf::atom("azurepoll")>;
using azure_retry_atom = caf::atom_constant<caf::atom("azureretry")>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::lifecycle_trigger)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::instance_identity)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::instance_group)
