#pragma once
// The warden's snapshot as gitlab-runner's wrapper API tells it, in the wrapper's own words
// (checked against helpers/runner_wrapper/wrapper.go and api/status.go of gitlab-runner 19.4):
// `unknown` until the runner has started, `running`, `in_shutdown` from the first shutdown
// request, `stopped` once runwarden is done with the runner; failureReason as soon as the
// runner failed, as Go's exec package words it: "exit status 1", "signal: killed", or
// "failed to start process: ..." when it never started. A runner that exited 0 has none.

#include <string>

#include "gitlab_runner/runner_wrapper.pb.h"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

namespace runner_wrapper = gitlab_com::gitlab_runner::runner_wrapper;

runner_wrapper::Status wrapper_status_of(const warden_snapshot& snapshot);

std::string wrapper_failure_reason(const warden_snapshot& snapshot);

// Go's (*os.ProcessState).String() for how a process ended: "exit status 2",
// "signal: terminated"; empty for a clean exit, which Go reports as no error at all.
std::string go_exit_text(const exit_status& status);

}  // namespace runwarden
