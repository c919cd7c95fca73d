// The ledger of proven connections (src/control/proven_connections.hpp): gRPC names a
// handed connection's peer "fd:N" (gRPC 1.51, chttp2_server.cc, as runwarden's refused-call
// log shows), and only such names mark; a descriptor forgotten before reuse starts unproven.
#include <catch2/catch.hpp>

#include "src/control/proven_connections.hpp"

namespace {

using namespace runwarden;

TEST_CASE("a handed connection's peer name gives its descriptor, others none", "[control]") {
  CHECK(handed_descriptor_of("fd:15") == 15);
  CHECK(handed_descriptor_of("fd:0") == 0);
  CHECK(handed_descriptor_of("ipv4:127.0.0.1:5000") == -1);
  CHECK(handed_descriptor_of("fd:") == -1);
  CHECK(handed_descriptor_of("fd:12x") == -1);
  CHECK(handed_descriptor_of("fd:-3") == -1);
  CHECK(handed_descriptor_of("fd:99999999999999999999") == -1);
}

TEST_CASE("a marked descriptor is proven until it is forgotten for a new connection", "[control]") {
  proven_connections connections;
  CHECK_FALSE(connections.proven(7));
  connections.mark("fd:7");
  connections.mark("ipv6:[::1]:4000");  // the TLS server's own connections: ignored
  CHECK(connections.proven(7));
  CHECK_FALSE(connections.proven(8));
  connections.forget(7);
  CHECK_FALSE(connections.proven(7));
}

}  // namespace
