#pragma once
// The warden's snapshot as the control API sends it: runwarden.v1.StatusResponse and
// gitlab-runner's wrapper Status. This is the edge where the actor clock's instants become
// wall-clock timestamps: given wall_now, the wall-clock time of snapshot.now, an instant t
// is shown as wall_now - (snapshot.now - t). (wall_clock_anchor gives wall_now.)

#include <chrono>

#include "gitlab_runner/runner_wrapper.pb.h"
#include "runwarden/v1/warden.pb.h"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

namespace runner_wrapper = gitlab_com::gitlab_runner::runner_wrapper;

v1::StatusResponse status_response_of(const warden_snapshot& snapshot,
                                      std::chrono::system_clock::time_point wall_now);

// starting and running -> running, shutting_down -> in_shutdown, gone -> stopped.
runner_wrapper::Status wrapper_status_of(warden_status status);

// The wrapper's failureReason: why runwarden ended, when the runner did not end well.
std::string wrapper_failure_reason(const warden_snapshot& snapshot);

}  // namespace runwarden
