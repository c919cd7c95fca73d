// libFuzzer target for the control server's listen address ("unix:///path",
// "tcp://host:port"), read from the config and flags. An accepted address has an absolute
// path or a host and a port, and turns into a gRPC target.
#include "fuzz/fuzz_promise.hpp"
#include "src/config/listen_address.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const listen_address_result parsed = parse_listen_address(fuzz::as_text(data, size));
  if (!parsed.error.empty()) return 0;
  if (const auto* unix_socket = std::get_if<unix_socket_address>(&parsed.address)) {
    fuzz::require(unix_socket->path.starts_with("/"));
  } else {
    const auto& tcp = std::get<tcp_address>(parsed.address);
    fuzz::require(!tcp.host.empty());
  }
  fuzz::require(!grpc_target(parsed.address).empty());
  (void)is_loopback(parsed.address);
  return 0;
}
