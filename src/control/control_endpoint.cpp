// See control_endpoint.hpp.
#include "src/control/control_endpoint.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "src/control/bearer_token.hpp"
#include "src/control/unix_socket_file.hpp"
#include "src/logging/logging.hpp"

namespace runwarden {

namespace {

constexpr std::string_view disabled_word = "none";

control_endpoint_result failed(int exit_code, std::string error) {
  return {std::nullopt, std::move(error), exit_code};
}

std::optional<std::string> read_small_file(const std::string& path, std::string& error) {
  std::ifstream stream{path, std::ios::binary};
  if (!stream) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::string text(tls_file_bytes_max + 1, '\0');
  stream.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(stream.gcount()));
  if (text.empty() || text.size() > tls_file_bytes_max) {
    error = path + " is empty or larger than " + std::to_string(tls_file_bytes_max) + " bytes";
    return std::nullopt;
  }
  return text;
}

// Both files or neither, on TCP only.
std::string read_tls(const control_settings& settings, control_endpoint& endpoint) {
  const bool has_cert = !settings.tls_cert_file.empty();
  if (has_cert != !settings.tls_key_file.empty())
    return "control.tls_cert_file and control.tls_key_file go together: set both or neither";
  if (!has_cert) return "";
  if (std::holds_alternative<unix_socket_address>(endpoint.address))
    return "TLS (control.tls_cert_file) applies to tcp:// addresses only; " +
           endpoint.address_text + " is guarded by its file permissions";
  std::string error;
  auto cert = read_small_file(settings.tls_cert_file, error);
  if (!cert) return "control.tls_cert_file: " + error;
  auto key = read_small_file(settings.tls_key_file, error);
  if (!key) return "control.tls_key_file: " + error;
  endpoint.tls =
      grpc::SslServerCredentialsOptions::PemKeyCertPair{std::move(*key), std::move(*cert)};
  return "";
}

std::string check_exposure(const control_settings& settings, control_endpoint& endpoint) {
  if (is_loopback(endpoint.address) || endpoint.token) return "";
  if (!settings.insecure_unauthenticated_wrapper_api)
    return "refusing to listen on " + endpoint.address_text +
           " without a token: anyone who can reach it could stop the runner. Set "
           "control.token_file (--token-file), or listen on a loopback address or a unix "
           "socket, or accept the risk by name with "
           "control.insecure_unauthenticated_wrapper_api = true";
  endpoint.warden_shutdown_open = settings.insecure_unauthenticated_warden_shutdown;
  warden_logger()->warn(
      "INSECURE: the control API on {} takes calls WITHOUT ANY AUTHENTICATION "
      "(control.insecure_unauthenticated_wrapper_api): anyone who can reach it can drain or "
      "abort the runner through gitlab-runner's wrapper API. {}",
      endpoint.address_text,
      endpoint.warden_shutdown_open
          ? "runwarden.v1.Warden's Shutdown and ForceShutdown are open too "
            "(control.insecure_unauthenticated_warden_shutdown)."
          : "runwarden.v1.Warden's Shutdown and ForceShutdown stay refused.");
  return "";
}

std::string read_quiet_period(control_endpoint& endpoint) {
  const char* text = std::getenv(grpc_quiet_period_variable);
  if (!text) return "";
  const std::string_view value{text};
  long long milliseconds = 0;
  const auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), milliseconds);
  if (error != std::errc{} || end != value.data() + value.size() ||
      milliseconds < grpc_quiet_period_min.count() || milliseconds > grpc_quiet_period_max.count())
    return std::string{grpc_quiet_period_variable} + ": expected milliseconds from " +
           std::to_string(grpc_quiet_period_min.count()) + " to " +
           std::to_string(grpc_quiet_period_max.count()) + ", got \"" + std::string{value} + "\"";
  endpoint.grpc_quiet_period = std::chrono::milliseconds{milliseconds};
  return "";
}

control_endpoint_result prepare_socket(control_endpoint endpoint) {
  const auto& path = std::get<unix_socket_address>(endpoint.address).path;
  const auto prepared = prepare_socket_path(path);
  if (!prepared.error.empty()) return failed(exit_unavailable, prepared.error);
  if (prepared.removed_stale)
    warden_logger()->info("removed the stale control socket {} (nobody answered on it)", path);
  return {std::move(endpoint), {}, 0};
}

}  // namespace

control_endpoint_result prepare_control_endpoint(const control_settings& settings,
                                                 bool allow_link_local_callbacks) {
  if (settings.grpc_listen == disabled_word) return {};
  control_endpoint endpoint;
  endpoint.allow_link_local_callbacks = allow_link_local_callbacks;
  endpoint.address_text =
      settings.grpc_listen.empty() ? "unix://" + default_control_socket() : settings.grpc_listen;
  auto parsed = parse_listen_address(endpoint.address_text);
  if (!parsed.error.empty()) return failed(exit_config, "control.grpc_listen: " + parsed.error);
  endpoint.address = std::move(parsed.address);
  if (!settings.token_file.empty()) {
    auto token = read_token_file(settings.token_file);
    if (!token.token) return failed(exit_config, "control.token_file: " + token.error);
    endpoint.token = std::move(token.token);
    endpoint.token_file = settings.token_file;
  }
  if (auto problem = read_tls(settings, endpoint); !problem.empty())
    return failed(exit_config, problem);
  if (auto problem = check_exposure(settings, endpoint); !problem.empty())
    return failed(exit_config, problem);
  if (auto problem = read_quiet_period(endpoint); !problem.empty())
    return failed(exit_config, problem);
  if (!is_loopback(endpoint.address) && endpoint.token && !endpoint.tls)
    warden_logger()->warn(
        "the control API on {} is not encrypted: its token crosses the "
        "network in clear text (set control.tls_cert_file and "
        "control.tls_key_file)",
        endpoint.address_text);
  if (std::holds_alternative<unix_socket_address>(endpoint.address))
    return prepare_socket(std::move(endpoint));
  return {std::move(endpoint), {}, 0};
}

}  // namespace runwarden
