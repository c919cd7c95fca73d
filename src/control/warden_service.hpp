#pragma once
// runwarden.v1.Warden: Shutdown, ForceShutdown, Status, Watch and ReportJob, each answered from the
// warden by the callback API (no gRPC thread waits). Every call first shows its token when
// one is configured, and shutdown calls are checked in full before the warden hears of them.

#include "runwarden/v1/warden.grpc.pb.h"
#include "src/control/warden_bridge.hpp"

namespace runwarden {

class warden_service final : public v1::Warden::CallbackService {
 public:
  explicit warden_service(const control_context& context) : context_(context) {}

  // v1::Warden::CallbackService
  grpc::ServerUnaryReactor* Shutdown(grpc::CallbackServerContext* call,
                                     const v1::ShutdownRequest* request,
                                     v1::StatusResponse* response) override;
  grpc::ServerUnaryReactor* ForceShutdown(grpc::CallbackServerContext* call,
                                          const v1::ForceShutdownRequest* request,
                                          v1::StatusResponse* response) override;
  grpc::ServerUnaryReactor* Status(grpc::CallbackServerContext* call,
                                   const v1::StatusRequest* request,
                                   v1::StatusResponse* response) override;
  grpc::ServerUnaryReactor* ReportJob(grpc::CallbackServerContext* call,
                                      const v1::ReportJobRequest* request,
                                      v1::StatusResponse* response) override;
  grpc::ServerWriteReactor<v1::StatusResponse>* Watch(grpc::CallbackServerContext* call,
                                                      const v1::WatchRequest* request) override;

 private:
  const control_context& context_;
};

}  // namespace runwarden
