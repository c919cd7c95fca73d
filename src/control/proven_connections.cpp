// See proven_connections.hpp.
#include "src/control/proven_connections.hpp"

#include <charconv>

namespace runwarden {

namespace {

// grpc_server_add_channel_from_fd (gRPC 1.51, chttp2_server.cc) names the endpoint so.
constexpr std::string_view handed_prefix = "fd:";

}  // namespace

int handed_descriptor_of(std::string_view peer) {
  if (!peer.starts_with(handed_prefix)) return -1;
  const auto digits = peer.substr(handed_prefix.size());
  int fd = -1;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
  if (error != std::errc{} || end != digits.data() + digits.size() || fd < 0) return -1;
  return fd;
}

void proven_connections::mark(std::string_view peer) {
  const int fd = handed_descriptor_of(peer);
  if (fd < 0) return;
  std::lock_guard lock{mutex_};
  proven_.insert(fd);
}

bool proven_connections::proven(int fd) const {
  std::lock_guard lock{mutex_};
  return proven_.contains(fd);
}

void proven_connections::forget(int fd) {
  std::lock_guard lock{mutex_};
  proven_.erase(fd);
}

}  // namespace runwarden
