// The wrapper API's status and failureReason, in gitlab-runner's words: helpers/runner_wrapper
// (wrapper.go: unknown until the process started, the error of cmd.Wait or of cmd.Start
// wrapped as "failed to start process: ..."), and Go's os.ProcessState.String() for how the
// process ended ("exit status 1", "signal: killed"), with Go's Linux signal names.
#include "src/control/wrapper_status_text.hpp"

#include <catch2/catch.hpp>
#include <csignal>

namespace {

using namespace runwarden;

warden_snapshot at(warden_status status) {
  warden_snapshot snapshot;
  snapshot.status = status;
  return snapshot;
}

}  // namespace

TEST_CASE("statuses: unknown until the runner started", "[control][wrapper]") {
  CHECK(wrapper_status_of(at(warden_status::starting)) == runner_wrapper::unknown);
  CHECK(wrapper_status_of(at(warden_status::running)) == runner_wrapper::running);
  CHECK(wrapper_status_of(at(warden_status::shutting_down)) == runner_wrapper::in_shutdown);
  CHECK(wrapper_status_of(at(warden_status::gone)) == runner_wrapper::stopped);
}

TEST_CASE("how a process ended, as Go says it", "[control][wrapper]") {
  CHECK(go_exit_text({false, 0}).empty());
  CHECK(go_exit_text({false, 1}) == "exit status 1");
  CHECK(go_exit_text({false, 127}) == "exit status 127");
  CHECK(go_exit_text({true, SIGKILL}) == "signal: killed");
  CHECK(go_exit_text({true, SIGTERM}) == "signal: terminated");
  CHECK(go_exit_text({true, SIGQUIT}) == "signal: quit");
  CHECK(go_exit_text({true, SIGSEGV}) == "signal: segmentation fault");
  CHECK(go_exit_text({true, SIGABRT}) == "signal: aborted");
  CHECK(go_exit_text({true, 40}) == "signal: signal 40");
}

TEST_CASE("failureReason as soon as the runner failed, not only once gone", "[control][wrapper]") {
  auto running = at(warden_status::running);
  running.runner_pid = 100;
  CHECK(wrapper_failure_reason(running).empty());
  auto exited = at(warden_status::shutting_down);  // unregistering after the exit
  exited.last_exit = exit_status{false, 1};
  CHECK(wrapper_failure_reason(exited) == "exit status 1");
  auto killed = at(warden_status::gone);
  killed.last_exit = exit_status{true, SIGKILL};
  CHECK(wrapper_failure_reason(killed) == "signal: killed");
  auto clean = at(warden_status::gone);
  clean.last_exit = exit_status{false, 0};
  CHECK(wrapper_failure_reason(clean).empty());
  auto never = at(warden_status::gone);
  never.spawn_failure = "/opt/gitlab-runner: No such file or directory";
  CHECK(wrapper_failure_reason(never) ==
        "failed to start process: /opt/gitlab-runner: No such file or directory");
  // A restarted runner (runwarden run) has no failure while it runs.
  auto restarted = at(warden_status::running);
  restarted.last_exit = exit_status{false, 1};
  restarted.runner_pid = 101;
  CHECK(wrapper_failure_reason(restarted).empty());
}
