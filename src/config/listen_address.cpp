// Parses listen addresses strictly, so that a typo is refused when the config is read
// rather than when the server binds, and is_loopback can trust the host it is given.
#include "src/config/listen_address.hpp"

#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>
#include <utility>

namespace runwarden {

namespace {

constexpr std::string_view unix_scheme = "unix://";
constexpr std::string_view tcp_scheme = "tcp://";
// sockaddr_un's sun_path holds 108 bytes with the terminating zero.
constexpr std::size_t unix_path_bytes_max = 107;

listen_address_result failed(std::string error) {
  return {unix_socket_address{}, std::move(error)};
}

listen_address_result parse_unix(std::string_view path) {
  if (path.empty() || path.front() != '/')
    return failed("a unix socket needs an absolute path: unix:///run/runwarden/control.sock");
  if (path.size() > unix_path_bytes_max)
    return failed("unix socket path longer than " + std::to_string(unix_path_bytes_max) + " bytes");
  if (path.back() == '/') return failed("a unix socket path names a file, not a directory");
  return {unix_socket_address{std::string{path}}, {}};
}

// Brackets hold an IPv6 literal (with an optional %zone); anything else is a name or an
// IPv4 literal, made of letters, digits, dots, hyphens and underscores. This keeps spaces,
// slashes and "user@" out of a host before it reaches a resolver or a log line.
bool valid_host(std::string_view host, bool bracketed) {
  if (bracketed) {
    const std::string address{host.substr(0, host.find('%'))};
    in6_addr ignored{};
    return ::inet_pton(AF_INET6, address.c_str(), &ignored) == 1;
  }
  return std::all_of(host.begin(), host.end(), [](char character) {
    return std::isalnum(static_cast<unsigned char>(character)) != 0 || character == '.' ||
           character == '-' || character == '_';
  });
}

listen_address_result parse_tcp(std::string_view rest) {
  std::string_view host;
  std::string_view port_text;
  const bool bracketed = !rest.empty() && rest.front() == '[';
  if (bracketed) {
    const auto close = rest.find(']');
    if (close == std::string_view::npos || rest.substr(close + 1, 1) != ":")
      return failed("an IPv6 address is written tcp://[::1]:7701");
    host = rest.substr(1, close - 1);
    port_text = rest.substr(close + 2);
  } else {
    const auto colon = rest.rfind(':');
    if (colon == std::string_view::npos) return failed("missing port: tcp://HOST:PORT");
    host = rest.substr(0, colon);
    port_text = rest.substr(colon + 1);
    if (host.find(':') != std::string_view::npos)
      return failed("an IPv6 address is written in brackets: tcp://[::1]:7701");
  }
  if (host.empty()) return failed("missing host: tcp://HOST:PORT");
  if (!valid_host(host, bracketed))
    return failed("host \"" + std::string{host} + "\" is not a name or an IP address");
  unsigned port = 0;
  const auto [end, error] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (error != std::errc{} || end != port_text.data() + port_text.size() || port > 65535)
    return failed("port \"" + std::string{port_text} + "\" is not a number from 0 to 65535");
  return {tcp_address{std::string{host}, static_cast<std::uint16_t>(port)}, {}};
}

}  // namespace

listen_address_result parse_listen_address(std::string_view text) {
  if (text.starts_with(unix_scheme)) return parse_unix(text.substr(unix_scheme.size()));
  if (text.starts_with(tcp_scheme)) return parse_tcp(text.substr(tcp_scheme.size()));
  return failed("\"" + std::string{text} + "\" is neither unix:///PATH nor tcp://HOST:PORT");
}

std::string grpc_target(const listen_address& address) {
  if (const auto* socket = std::get_if<unix_socket_address>(&address))
    return "unix:" + socket->path;
  const auto& tcp = std::get<tcp_address>(address);
  const bool ipv6 = tcp.host.find(':') != std::string::npos;
  return (ipv6 ? "[" + tcp.host + "]" : tcp.host) + ":" + std::to_string(tcp.port);
}

bool is_loopback(const listen_address& address) {
  const auto* tcp = std::get_if<tcp_address>(&address);
  if (tcp == nullptr) return true;
  if (tcp->host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, tcp->host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, tcp->host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;  // Any other name may resolve anywhere.
}

std::string default_control_socket() {
  if (::geteuid() == 0) return "/run/runwarden/control.sock";
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && runtime[0] == '/')
    return std::string{runtime} + "/runwarden/control.sock";
  return "/tmp/runwarden-" + std::to_string(::geteuid()) + "/control.sock";
}

}  // namespace runwarden
