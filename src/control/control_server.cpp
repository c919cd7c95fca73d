// See control_server.hpp.
#include "src/control/control_server.hpp"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <limits>

#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

// How long a server that failed to finish starting may take to let go of its calls.
constexpr std::chrono::milliseconds abandon_grace{200};

std::shared_ptr<grpc::ServerCredentials> credentials_for(const control_endpoint& endpoint) {
  if (!endpoint.tls) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back(*endpoint.tls);
  return grpc::SslServerCredentials(options);
}

std::string description_of(const control_endpoint& endpoint, int port) {
  std::string where = endpoint.address_text;
  if (const auto* tcp = std::get_if<tcp_address>(&endpoint.address); tcp && tcp->port == 0)
    where += " (port " + std::to_string(port) + ")";
  where += endpoint.tls ? ", TLS" : "";
  where += endpoint.token ? ", token from " + endpoint.token_file : ", no token";
  if (!endpoint.token && !is_loopback(endpoint.address)) where += " (INSECURE, by opt-in)";
  return where;
}

}  // namespace

control_server::control_server(control_endpoint endpoint, caf::actor_system& system,
                               warden_actor warden)
    : endpoint_(std::move(endpoint)),
      context_{system,
               std::move(warden),
               endpoint_.token,
               endpoint_.warden_shutdown_open,
               endpoint_.allow_link_local_callbacks,
               std::make_shared<wall_clock_anchor>(),
               std::make_shared<open_watches>()},
      warden_service_(context_),
      wrapper_service_(context_) {}

control_server::~control_server() { stop(abandon_grace); }

control_server_start control_server::start(control_endpoint endpoint, caf::actor_system& system,
                                           warden_actor warden) {
  std::unique_ptr<control_server> server{
      new control_server{std::move(endpoint), system, std::move(warden)}};
  if (auto problem = server->listen(); !problem.empty()) {
    server->stop(abandon_grace);
    return {nullptr, std::move(problem), exit_unavailable};
  }
  return {std::move(server), {}, 0};
}

std::string control_server::listen() {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
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
  int port = 0;
  builder.AddListeningPort(grpc_target(endpoint_.address), credentials_for(endpoint_), &port);
  builder.RegisterService(&warden_service_);
  builder.RegisterService(&wrapper_service_);
  server_ = builder.BuildAndStart();
  if (!server_ || port == 0)
    return "cannot listen on " + endpoint_.address_text +
           ": the address is in use or not one of this host's (gRPC's log above may say more)";
  if (const auto* socket = std::get_if<unix_socket_address>(&endpoint_.address)) {
    auto restricted = restrict_socket_file(socket->path);
    if (!restricted.identity) return restricted.error;
    socket_file_ = restricted.identity;
  }
  warden_logger()->info("control API listening on {}", description_of(endpoint_, port));
  return "";
}

void control_server::stop(std::chrono::milliseconds grace) {
  if (server_) {
    // Watch streams end by themselves after `gone`; let them, and let clients read it.
    if (!context_.watches->wait_settled(grace))
      warden_logger()->info("control API stopping with Watch streams still open");
    server_->Shutdown(std::chrono::system_clock::now() + grace);
    server_->Wait();
    server_.reset();
  }
  if (socket_file_) {
    remove_socket_file(std::get<unix_socket_address>(endpoint_.address).path, *socket_file_);
    socket_file_.reset();
  }
}

}  // namespace runwarden
