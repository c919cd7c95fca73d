#pragma once
// What a failed Auto Scaling call means for the caller, decided from the HTTP status and the
// error envelope. The classes are what the caller does next, not what AWS called the error:
//   retry_with_backoff  throttling, resource contention, a timed-out request, 408, 429, 5xx:
//                       the same call, later, backing off (the codes and statuses the AWS
//                       SDKs retry, whatever status carries them)
//   retry_later         a scaling activity is in progress: the call is fine, the moment is not
//   already_done        "No active Lifecycle Action found": the hook was completed (by us,
//                       before a restart) or timed out; completion is idempotent
//   access_denied       the instance role lacks the permission; the description names it,
//                       since a missing permission silently turns a graceful drain into a
//                       hook timeout
//   credentials_rejected expired or unknown credentials, a bad signature or clock skew:
//                       fetch credentials again before retrying
//   failed              anything else: code and message in the description

#include <string>
#include <string_view>

#include "src/aws/autoscaling_requests.hpp"

namespace runwarden {

enum class autoscaling_failure_kind {
  retry_with_backoff,
  retry_later,
  already_done,
  access_denied,
  credentials_rejected,
  failed,
};

struct autoscaling_failure {
  autoscaling_failure_kind kind = autoscaling_failure_kind::failed;
  std::string code;         // the envelope's Code; empty when the body had none
  std::string description;  // one line for the log, naming the action
};

// For an answer whose status is not 2xx.
autoscaling_failure classify_autoscaling_failure(const autoscaling_call& call, int http_status,
                                                 std::string_view body);

std::string_view failure_kind_name(autoscaling_failure_kind kind);

// Whether the same call, later, can still succeed: every caller asks this one question before
// it gives up, so that a transient failure is never taken for a refusal (which ends a drain's
// hook at its timeout, or leaves an instance running) and a refusal is not retried forever.
// already_done is neither: the caller counts it as done.
bool retrying_can_help(autoscaling_failure_kind kind);

}  // namespace runwarden
