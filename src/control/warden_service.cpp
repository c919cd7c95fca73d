// See warden_service.hpp.
#include "src/control/warden_service.hpp"

#include "src/control/bearer_token.hpp"
#include "src/control/call_authorization.hpp"
#include "src/control/shutdown_call_check.hpp"
#include "src/control/shutdown_request_check.hpp"
#include "src/control/snapshot_wire.hpp"
#include "src/control/watch_stream.hpp"
#include "src/drain/job_ledger.hpp"

namespace runwarden {

namespace {

// Listening without a token off loopback, only the wrapper API was opened.
grpc::Status shutdown_closed_status() {
  return {grpc::StatusCode::PERMISSION_DENIED,
          "runwarden.v1.Warden's shutdown calls need a token on this address; the operator "
          "opened only gitlab-runner's wrapper API (control.insecure_unauthenticated_wrapper_api)"
          ", not control.insecure_unauthenticated_warden_shutdown"};
}

instant now_on_actor_clock(caf::actor_system& system) {
  return std::chrono::duration_cast<instant>(system.clock().now().time_since_epoch());
}

void fill_status(const warden_snapshot& snapshot, std::chrono::system_clock::time_point wall_now,
                 v1::StatusResponse& response) {
  response = status_response_of(snapshot, wall_now);
}

}  // namespace

grpc::ServerUnaryReactor* warden_service::Shutdown(grpc::CallbackServerContext* call,
                                                   const v1::ShutdownRequest* request,
                                                   v1::StatusResponse* response) {
  if (!authorize_call(context_, *call)) return finish_now(call, unauthenticated_status());
  if (!context_.warden_shutdown_open) return finish_now(call, shutdown_closed_status());
  auto checked = check_shutdown_request(*request, now_on_actor_clock(context_.system),
                                        context_.allow_link_local_callbacks);
  if (!checked.event) return finish_now(call, {grpc::StatusCode::INVALID_ARGUMENT, checked.error});
  return answer_from_warden(context_, call, response, &fill_status, std::move(*checked.event));
}

grpc::ServerUnaryReactor* warden_service::ForceShutdown(grpc::CallbackServerContext* call,
                                                        const v1::ForceShutdownRequest* request,
                                                        v1::StatusResponse* response) {
  if (!authorize_call(context_, *call)) return finish_now(call, unauthenticated_status());
  if (!context_.warden_shutdown_open) return finish_now(call, shutdown_closed_status());
  if (auto problem = reason_problem(request->reason()))
    return finish_now(call, {grpc::StatusCode::INVALID_ARGUMENT, *problem});
  return answer_from_warden(
      context_, call, response, &fill_status,
      forceful_shutdown_requested{trigger_source::control_api, request->reason()});
}

grpc::ServerUnaryReactor* warden_service::Status(grpc::CallbackServerContext* call,
                                                 const v1::StatusRequest*,
                                                 v1::StatusResponse* response) {
  if (!authorize_call(context_, *call)) return finish_now(call, unauthenticated_status());
  return answer_from_warden(context_, call, response, &fill_status, caf::get_atom::value);
}

// A report changes what scale-in may do, so it is closed where the shutdown calls are.
grpc::ServerUnaryReactor* warden_service::ReportJob(grpc::CallbackServerContext* call,
                                                    const v1::ReportJobRequest* request,
                                                    v1::StatusResponse* response) {
  if (!call_authorized(*call, context_.token)) return finish_now(call, unauthenticated_status());
  if (!context_.warden_shutdown_open) return finish_now(call, shutdown_closed_status());
  if (auto problem = job_id_problem(request->job_id()))
    return finish_now(call, {grpc::StatusCode::INVALID_ARGUMENT, *problem});
  if (request->event() != v1::ReportJobRequest::EVENT_STARTED &&
      request->event() != v1::ReportJobRequest::EVENT_ENDED)
    return finish_now(call, {grpc::StatusCode::INVALID_ARGUMENT,
                             "the event must be EVENT_STARTED or EVENT_ENDED"});
  const auto kind = request->event() == v1::ReportJobRequest::EVENT_STARTED
                        ? job_report_kind::started
                        : job_report_kind::ended;
  return answer_from_warden(context_, call, response, &fill_status,
                            job_reported{kind, request->job_id()});
}

grpc::ServerWriteReactor<v1::StatusResponse>* warden_service::Watch(
    grpc::CallbackServerContext* call, const v1::WatchRequest*) {
  if (!authorize_call(context_, *call)) return refuse_watch(unauthenticated_status());
  return start_watch(context_);
}

}  // namespace runwarden
