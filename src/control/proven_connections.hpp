#pragma once
// Which of the connections runwarden handed to gRPC have proven themselves: carried a call
// that passed the token check (any Warden or ProcessWrapper call when no token is set). The
// on-demand acceptor drops a connection that has not within unproven_connection_timeout,
// and at its connection limit evicts unproven ones first (grpc_on_demand.hpp), so idle
// connections that authenticate nothing cannot hold the slots a token holder needs
//. gRPC names a handed connection's peer "fd:N" after its descriptor, which is
// how a call finds its connection; the acceptor forgets N before it hands a new
// connection that descriptor. Calls mark from gRPC's threads, the acceptor reads from its
// own, so one mutex guards the set.

#include <cstddef>
#include <mutex>
#include <string_view>
#include <unordered_set>

namespace runwarden {

class proven_connections {
 public:
  // From a call that passed the token check; a peer that is no handed descriptor (the TLS
  // server's own connections) is ignored.
  void mark(std::string_view peer);

  bool proven(int fd) const;

  // Before descriptor `fd` carries a new connection. A descriptor number is reused only
  // after gRPC closed it, so a mark left from its last connection must not carry over.
  void forget(int fd);

 private:
  mutable std::mutex mutex_;
  std::unordered_set<int> proven_;  // bounded by the descriptor table
};

// The descriptor in gRPC's "fd:N" peer name, or -1.
int handed_descriptor_of(std::string_view peer);

}  // namespace runwarden
