#pragma once
// The token check every Warden and ProcessWrapper call makes first (bearer_token.hpp). A
// call that passes also marks its connection as proven, so the on-demand acceptor neither
// drops it for authenticating nothing nor evicts it for a newcomer (proven_connections.hpp).

#include <grpcpp/server_context.h>

#include "src/control/bearer_token.hpp"
#include "src/control/warden_bridge.hpp"

namespace runwarden {

inline bool authorize_call(const control_context& context, const grpc::ServerContextBase& call) {
  if (!call_authorized(call, context.token)) return false;
  if (context.connections) context.connections->mark(call.peer());
  return true;
}

}  // namespace runwarden
