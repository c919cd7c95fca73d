#pragma once
// What a dry run (run.dry_run, --dry-run) withholds: every HTTP request that changes
// something outside the machine. Reads go out, since a dry run still watches and scrapes as
// usual: GET and HEAD (the runner's metrics, instance metadata, GitHub's lookup of a runner's
// id), the metadata service's IMDSv2 session token (a PUT that only opens a read), and the
// Auto Scaling Query API's Describe* actions. Everything else is withheld and answered as
// done: the Auto Scaling actions (CompleteLifecycleAction, RecordLifecycleActionHeartbeat,
// SetInstanceProtection, SetDesiredCapacity, TerminateInstanceInAutoScalingGroup,
// SetInstanceHealth (a retirement's end), any later
// one), unregistration (GitLab's and GitHub's DELETE), Azure's approval of a scheduled event,
// and webhooks and shutdown callbacks (a caller's callback may delete the machine).
//
// Withholding by the request rather than by the worker that sends it means a call added
// later is withheld too unless it only reads: nothing escapes by being new.
//
// Pure: the dry-run port (actors/http_port/dry_run_http_port.hpp) asks, logs and answers.

#include <optional>
#include <string>

#include "src/util/http_exchange.hpp"

namespace runwarden {

struct withheld_call {
  // Names the call for the log, without secrets: an Auto Scaling action with its
  // parameters but no token; an unregistration by its API path; anything else (a webhook,
  // a callback, whose URL may carry a secret) by method and host only.
  std::string name;
  http_response answer;  // what the caller is told: the call succeeded
};

// Nothing when the request only reads and goes out as usual.
std::optional<withheld_call> dry_run_withholding(const http_request& request);

}  // namespace runwarden
