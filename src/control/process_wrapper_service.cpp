// See process_wrapper_service.hpp.
#include "src/control/process_wrapper_service.hpp"

#include "src/control/bearer_token.hpp"
#include "src/control/call_authorization.hpp"
#include "src/control/shutdown_request_check.hpp"
#include "src/control/wrapper_status_text.hpp"

namespace runwarden {

namespace {

// The reasons the drain shows, naming the API that asked.
constexpr const char* graceful_reason = "InitGracefulShutdown (gitlab-runner wrapper API)";
constexpr const char* forceful_reason = "InitForcefulShutdown (gitlab-runner wrapper API)";

// All three responses carry the same two fields.
template <class response_type>
void fill_wrapper_status(const warden_snapshot& snapshot, std::chrono::system_clock::time_point,
                         response_type& response) {
  response.set_status(wrapper_status_of(snapshot));
  response.set_failurereason(wrapper_failure_reason(snapshot));
}

}  // namespace

grpc::ServerUnaryReactor* process_wrapper_service::CheckStatus(
    grpc::CallbackServerContext* call, const runner_wrapper::CheckStatusRequest*,
    runner_wrapper::CheckStatusResponse* response) {
  if (!authorize_call(context_, *call)) return finish_now(call, unauthenticated_status());
  return answer_from_warden(context_, call, response, &fill_wrapper_status, caf::get_atom::value);
}

grpc::ServerUnaryReactor* process_wrapper_service::InitGracefulShutdown(
    grpc::CallbackServerContext* call, const runner_wrapper::InitGracefulShutdownRequest* request,
    runner_wrapper::InitGracefulShutdownResponse* response) {
  if (!authorize_call(context_, *call)) return finish_now(call, unauthenticated_status());
  shutdown_requested event{.source = trigger_source::control_api, .reason = graceful_reason};
  // gitlab-runner registers a callback only when it has a URL; a method or headers alone
  // are ignored, not refused (helpers/runner_wrapper/wrapper.go InitiateGracefulShutdown).
  if (request->has_shutdowncallback() && !request->shutdowncallback().url().empty()) {
    event.callback = callback_from_wire(request->shutdowncallback());
    if (auto problem = callback_problem(*event.callback, context_.allow_link_local_callbacks))
      return finish_now(call, {grpc::StatusCode::INVALID_ARGUMENT, *problem});
  }
  return answer_from_warden(context_, call, response, &fill_wrapper_status, std::move(event));
}

grpc::ServerUnaryReactor* process_wrapper_service::InitForcefulShutdown(
    grpc::CallbackServerContext* call, const runner_wrapper::InitForcefulShutdownRequest*,
    runner_wrapper::InitForcefulShutdownResponse* response) {
  if (!authorize_call(context_, *call)) return finish_now(call, unauthenticated_status());
  return answer_from_warden(
      context_, call, response, &fill_wrapper_status,
      forceful_shutdown_requested{trigger_source::control_api, forceful_reason});
}

}  // namespace runwarden
