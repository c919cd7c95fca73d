// See control_server.hpp.
#include "src/control/control_server.hpp"

#include <grpcpp/security/server_credentials.h>

#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

// How long a server that failed to finish starting may take to let go of its calls.
constexpr std::chrono::milliseconds abandon_grace{200};

std::shared_ptr<grpc::ServerCredentials> tls_credentials(const control_endpoint& endpoint) {
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
               std::make_shared<open_watches>(),
               std::make_shared<proven_connections>()} {}

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
  int port = 0;
  if (endpoint_.tls) {
    const grpc_listening_port listening{grpc_target(endpoint_.address), tls_credentials(endpoint_)};
    always_on_ = grpc_host::start(context_, &listening, port);
    if (!always_on_)
      return "cannot listen on " + endpoint_.address_text +
             ": the address is in use or not one of this host's (gRPC's log above may say more)";
  } else {
    auto started = grpc_on_demand::start(endpoint_.address, context_, endpoint_.grpc_quiet_period);
    if (!started.server) return "cannot listen on " + endpoint_.address_text + ": " + started.error;
    on_demand_ = std::move(started.server);
    port = started.port;
  }
  if (const auto* socket = std::get_if<unix_socket_address>(&endpoint_.address)) {
    auto restricted = restrict_socket_file(socket->path);
    if (!restricted.identity) return restricted.error;
    socket_file_ = restricted.identity;
  }
  warden_logger()->info("control API listening on {}", description_of(endpoint_, port));
  return "";
}

void control_server::stop(std::chrono::milliseconds grace) {
  // Watch streams end by themselves after `gone`; let them, and let clients read it. The
  // server goes on taking calls meanwhile.
  if ((always_on_ || on_demand_) && !context_.watches->wait_settled(grace))
    warden_logger()->info("control API stopping with Watch streams still open");
  if (always_on_) always_on_->stop(grace);
  always_on_.reset();
  if (on_demand_) on_demand_->stop(grace);
  on_demand_.reset();
  if (socket_file_) {
    remove_socket_file(std::get<unix_socket_address>(endpoint_.address).path, *socket_file_);
    socket_file_.reset();
  }
}

}  // namespace runwarden
