// See control_client.hpp.
#include "src/control/control_client.hpp"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "src/config/listen_address.hpp"
#include "src/control/bearer_token.hpp"
#include "src/control/unix_socket_file.hpp"

namespace runwarden {

namespace {

// The kernel's answer to connect(), as a sentence; exit_code 0 when a server answered.
client_failure probe_failure(const std::string& path, const std::string& address_text) {
  const int error = probe_unix_socket(path);
  if (error == 0) return {};
  if (error == EACCES || error == EPERM)
    return {exit_ctl_permission, "permission denied on " + address_text +
                                     ": run as the socket's owner or a member of its group"};
  const std::string why = error == ENOENT         ? "no such file"
                          : error == ECONNREFUSED ? "connection refused"
                                                  : std::strerror(error);
  return {exit_unavailable, "no runwarden listening at " + address_text + ": " + why};
}

std::shared_ptr<grpc::ChannelCredentials> credentials_for(const client_settings& settings,
                                                          client_failure& failure) {
  if (settings.tls_ca_file.empty()) return grpc::InsecureChannelCredentials();
  std::ifstream stream{settings.tls_ca_file, std::ios::binary};
  if (!stream) {
    failure = {exit_ctl_no_input,
               "cannot read " + settings.tls_ca_file + ": " + std::strerror(errno)};
    return nullptr;
  }
  std::ostringstream text;
  text << stream.rdbuf();
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = text.str();
  return grpc::SslCredentials(options);
}

}  // namespace

client_failure failure_of(const grpc::Status& status, const std::string& address_text,
                          bool has_token) {
  const std::string said = status.error_message();
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      return {};
    case grpc::StatusCode::UNAUTHENTICATED:
      return {exit_ctl_token_refused,
              "the token was refused by runwarden at " + address_text +
                  (has_token ? "" : " (none was sent: pass --token-file FILE)")};
    case grpc::StatusCode::PERMISSION_DENIED:
      return {exit_ctl_permission, "permission denied by runwarden at " + address_text};
    case grpc::StatusCode::INVALID_ARGUMENT:
      return {exit_ctl_refused_request, "runwarden refused the request: " + said};
    case grpc::StatusCode::UNAVAILABLE:
      return {exit_unavailable, "no runwarden answering at " + address_text + ": " + said};
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return {exit_ctl_temporary, "runwarden at " + address_text + " did not answer in time"};
    case grpc::StatusCode::CANCELLED:
      return {exit_ctl_temporary, "the call to " + address_text + " was cut off: " + said};
    default:
      return {exit_ctl_protocol, "unexpected answer from runwarden at " + address_text + ": code " +
                                     std::to_string(status.error_code()) + ": " + said};
  }
}

control_client::connect_result control_client::connect(const client_settings& settings) {
  const auto parsed = parse_listen_address(settings.address_text);
  if (!parsed.error.empty()) return {std::nullopt, {exit_usage, parsed.error}};
  std::optional<std::string> token;
  if (!settings.token_file.empty()) {
    auto read = read_token_file(settings.token_file);
    if (!read.token) return {std::nullopt, {exit_ctl_no_input, read.error}};
    token = std::move(read.token);
  }
  client_failure failure;
  auto credentials = credentials_for(settings, failure);
  if (!credentials) return {std::nullopt, failure};
  if (const auto* socket = std::get_if<unix_socket_address>(&parsed.address)) {
    failure = probe_failure(socket->path, settings.address_text);
    if (failure.exit_code != 0) return {std::nullopt, failure};
  }
  auto channel = grpc::CreateChannel(grpc_target(parsed.address), credentials);
  return {control_client{settings.address_text, std::move(token), v1::Warden::NewStub(channel)},
          {}};
}

control_client::control_client(std::string address_text, std::optional<std::string> token,
                               std::unique_ptr<v1::Warden::Stub> stub)
    : address_text_(std::move(address_text)), token_(std::move(token)), stub_(std::move(stub)) {}

std::unique_ptr<grpc::ClientContext> control_client::new_context(bool with_deadline) const {
  auto context = std::make_unique<grpc::ClientContext>();
  if (with_deadline) context->set_deadline(std::chrono::system_clock::now() + call_timeout);
  if (token_) context->AddMetadata("authorization", authorization_value(*token_));
  return context;
}

status_result control_client::finish(const grpc::Status& status,
                                     v1::StatusResponse response) const {
  if (status.ok()) return {std::move(response), {}};
  return {std::nullopt, failure_of(status, address_text_, token_.has_value())};
}

status_result control_client::status() {
  v1::StatusResponse response;
  const auto context = new_context(true);
  const auto status = stub_->Status(context.get(), v1::StatusRequest{}, &response);
  return finish(status, std::move(response));
}

status_result control_client::shutdown(const v1::ShutdownRequest& request) {
  v1::StatusResponse response;
  const auto context = new_context(true);
  const auto status = stub_->Shutdown(context.get(), request, &response);
  return finish(status, std::move(response));
}

status_result control_client::force_shutdown(const v1::ForceShutdownRequest& request) {
  v1::StatusResponse response;
  const auto context = new_context(true);
  const auto status = stub_->ForceShutdown(context.get(), request, &response);
  return finish(status, std::move(response));
}

status_result control_client::report_job(const v1::ReportJobRequest& request) {
  v1::StatusResponse response;
  const auto context = new_context(true);
  const auto status = stub_->ReportJob(context.get(), request, &response);
  return finish(status, std::move(response));
}

std::unique_ptr<status_stream> control_client::watch() {
  return std::make_unique<status_stream>(new_context(false), address_text_, token_.has_value(),
                                         *stub_);
}

status_stream::status_stream(std::unique_ptr<grpc::ClientContext> context,
                             const std::string& address_text, bool has_token,
                             v1::Warden::Stub& stub)
    : context_(std::move(context)),
      reader_(stub.Watch(context_.get(), v1::WatchRequest{})),
      address_text_(address_text),
      has_token_(has_token) {}

std::optional<v1::StatusResponse> status_stream::next() {
  v1::StatusResponse response;
  if (!reader_->Read(&response)) return std::nullopt;
  return response;
}

client_failure status_stream::end() {
  return failure_of(reader_->Finish(), address_text_, has_token_);
}

}  // namespace runwarden
