#pragma once
// The Auto Scaling client's vocabulary. One actor (actors/autoscaling_client) makes every
// Auto Scaling call runwarden needs, for the lifecycle hooks and for the scaler: it finds
// credentials (environment, shared credentials file, the instance role through IMDSv2,
// refreshed before they expire), the region (AWS_REGION, else the identity document) and
// the endpoint, signs with SigV4, sends through its HTTP port and retries what AWS asks to
// be retried (throttling, resource contention, 5xx, credentials rejected: after fetching
// them again) with capped backoff and jitter while the call's budget lasts.
//
// Its interface is autoscaling_client_actor below. The budget bounds the retries, not one
// attempt: every attempt has the client's own timeout. Callers that must never give up
// (completing a hook) ask again when an outcome comes back unsucceeded with a retryable kind.

#include <chrono>
#include <cstdint>
#include <string>

#include "caf/all.hpp"
#include "messages/lifecycle_messages.hpp"
#include "src/aws/autoscaling_failure.hpp"
#include "src/aws/autoscaling_requests.hpp"

namespace runwarden {

using autoscaling_call_atom = caf::atom_constant<caf::atom("asgcall")>;
using identity_atom = caf::atom_constant<caf::atom("identity")>;

struct autoscaling_outcome {
  std::string action;                // the call's Action, for logs
  bool succeeded = false;            // a 2xx answer
  std::string body;                  // the answer's body when succeeded
  autoscaling_failure failure = {};  // meaningful when !succeeded
  std::uint32_t attempts = 0;
};

// What the client's callers (the lifecycle hooks actor, the scaler) may ask it:
//   (autoscaling_call_atom, autoscaling_call, std::chrono::milliseconds budget)
//       -> autoscaling_outcome: succeeded with the answer's body, or the last failure
//          (retry_later, already_done, access_denied and failed come back at once;
//          retryable kinds once the budget is spent)
//   (identity_atom) -> instance_identity, read once from IMDS; an error naming the problem
//          when it cannot be read
using autoscaling_client_actor =
    caf::typed_actor<caf::replies_to<autoscaling_call_atom, autoscaling_call,
                                     std::chrono::milliseconds>::with<autoscaling_outcome>,
                     caf::replies_to<identity_atom>::with<instance_identity>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::autoscaling_call)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::autoscaling_outcome)
