#pragma once
// Where the control server listens, spelled as gitlab-runner's wrapper spells it:
// "unix:///run/runwarden/control.sock" or "tcp://127.0.0.1:7701" ("tcp://[::1]:7701").

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace runwarden {

struct unix_socket_address {
  std::string path;  // absolute
  friend bool operator==(const unix_socket_address&, const unix_socket_address&) = default;
};

struct tcp_address {
  std::string host;  // a name or an IP literal, without brackets
  std::uint16_t port = 0;
  friend bool operator==(const tcp_address&, const tcp_address&) = default;
};

using listen_address = std::variant<unix_socket_address, tcp_address>;

struct listen_address_result {
  listen_address address;
  std::string error;  // empty when address is valid
};

listen_address_result parse_listen_address(std::string_view text);

// The form gRPC's own target syntax understands ("unix:/path", "127.0.0.1:7701", "[::1]:1").
std::string grpc_target(const listen_address& address);

// True for tcp addresses on 127.0.0.0/8, ::1 and "localhost"; unix sockets are local too.
bool is_loopback(const listen_address& address);

// The default control socket: /run/runwarden/control.sock for root, else
// $XDG_RUNTIME_DIR/runwarden/control.sock (or /tmp/runwarden-UID/control.sock).
std::string default_control_socket();

}  // namespace runwarden
