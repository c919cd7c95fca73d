// See grpc_host.hpp.
#include "src/control/grpc_host.hpp"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/server_posix.h>

#include <limits>
#include <utility>

#include "src/util/assert.hpp"

namespace runwarden {

grpc_host::grpc_host(const control_context& context)
    : warden_service_(context), wrapper_service_(context) {}

grpc_host::~grpc_host() { stop(std::chrono::milliseconds::zero()); }

std::unique_ptr<grpc_host> grpc_host::start(const control_context& context,
                                            const grpc_listening_port* port, int& bound_port) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  std::unique_ptr<grpc_host> host{new grpc_host{context}};
  grpc::ServerBuilder builder;
  // gRPC sets SO_REUSEPORT by default, which would let a second runwarden share the port.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(request_bytes_max);
  // Reflection is a sync service, whose idle poller thread wakes every CQ_TIMEOUT_MSEC (10 s
  // by default). In gRPC 1.51 the timeout only retires surplus pollers
  // (ThreadManager::MainWorkLoop) and Shutdown wakes pollers by shutting their queue down,
  // so an idle poller may sleep until there is work.
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::CQ_TIMEOUT_MSEC,
                              std::numeric_limits<int>::max());
  bound_port = 0;
  if (port) {
    builder.AddListeningPort(port->target, port->credentials, &bound_port);
    // gRPC's own listener (TLS) closes a connection that has not finished its handshake
    // and sent HTTP/2's settings by then (120 s by default): a connection that sends
    // nothing holds nothing for long. Handed connections have no handshake;
    // the on-demand acceptor bounds those (grpc_on_demand.hpp).
    builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                               static_cast<int>(tls_handshake_timeout.count()));
  }
  builder.RegisterService(&host->warden_service_);
  builder.RegisterService(&host->wrapper_service_);
  host->server_ = builder.BuildAndStart();
  if (!host->server_ || (port && bound_port == 0)) return nullptr;
  return host;
}

void grpc_host::serve_connection(int fd) {
  RUNWARDEN_ASSERT(server_ && fd >= 0);
  grpc::AddInsecureChannelFromFd(server_.get(), fd);
}

void grpc_host::stop(std::chrono::milliseconds grace) {
  if (!server_) return;
  server_->Shutdown(std::chrono::system_clock::now() + grace);
  server_->Wait();
  server_.reset();
}

}  // namespace runwarden
