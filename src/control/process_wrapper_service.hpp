#pragma once
// gitlab-runner's ProcessWrapper service, served by runwarden so that tools written for
// `gitlab-runner wrapper` (GitLab's GRIT deployer, whose `wait-terminated` polls CheckStatus,
// and gitlab-runner's own Go client in helpers/runner_wrapper/api/client) drain a runner
// behind runwarden unchanged. The calls map onto the same warden requests as
// runwarden.v1.Warden's: a token when one is configured, a callback checked for the few
// refusals shutdown_request_check.hpp names. Once gone, every call answers `stopped` with
// OK, as the real wrapper does, for as long as runwarden lingers.

#include "gitlab_runner/runner_wrapper.grpc.pb.h"
#include "src/control/warden_bridge.hpp"
#include "src/control/wrapper_status_text.hpp"

namespace runwarden {

class process_wrapper_service final : public runner_wrapper::ProcessWrapper::CallbackService {
 public:
  explicit process_wrapper_service(const control_context& context) : context_(context) {}

  // runner_wrapper::ProcessWrapper::CallbackService
  grpc::ServerUnaryReactor* CheckStatus(grpc::CallbackServerContext* call,
                                        const runner_wrapper::CheckStatusRequest* request,
                                        runner_wrapper::CheckStatusResponse* response) override;
  grpc::ServerUnaryReactor* InitGracefulShutdown(
      grpc::CallbackServerContext* call, const runner_wrapper::InitGracefulShutdownRequest* request,
      runner_wrapper::InitGracefulShutdownResponse* response) override;
  grpc::ServerUnaryReactor* InitForcefulShutdown(
      grpc::CallbackServerContext* call, const runner_wrapper::InitForcefulShutdownRequest* request,
      runner_wrapper::InitForcefulShutdownResponse* response) override;

 private:
  const control_context& context_;
};

}  // namespace runwarden
