#pragma once
// How a gRPC handler asks the warden without ever blocking a gRPC thread: it spawns a
// one-shot actor that sends the question, and the answer (or the failure) is handed to a
// callback on a CAF thread, which finishes the call. The actor ends once it got the answer.
// Spawning is thread-safe, so any gRPC thread may do it. Server
// shutdown waits for every open call to finish, and every question here is answered or
// times out, so no call outlives the server.

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"
#include "src/control/open_watches.hpp"
#include "src/control/proven_connections.hpp"
#include "src/control/wall_clock_anchor.hpp"
#include "src/drain/warden_snapshot.hpp"

namespace runwarden {

// The warden answers within microseconds; past this something is badly wrong.
inline constexpr std::chrono::seconds warden_answer_timeout{5};

// What every control service needs: the actors to talk to, the token calls must carry, the
// one mapping from the warden's instants to wall-clock time that all answers share, the
// tally of open Watch streams that stopping the server waits for, and the connections that
// proved themselves.
struct control_context {
  caf::actor_system& system;
  warden_actor warden;
  std::optional<std::string> token;  // none: calls need no token
  // False when listening off loopback without a token and only the wrapper API was opened
  // (control_endpoint.hpp): the Warden's Shutdown and ForceShutdown are refused.
  bool warden_shutdown_open;
  bool allow_link_local_callbacks;  // webhook.allow_link_local
  std::shared_ptr<wall_clock_anchor> wall_clock;
  std::shared_ptr<open_watches> watches;
  // The connections whose calls passed the token check; null where no acceptor asks.
  std::shared_ptr<proven_connections> connections;
};

// Writes a snapshot into a response; wall_now is the wall-clock time of snapshot.now.
template <class response_type>
using response_filler = void (*)(const warden_snapshot& snapshot,
                                 std::chrono::system_clock::time_point wall_now,
                                 response_type& response);

using snapshot_handler = std::function<void(const warden_snapshot&)>;
using failure_handler = std::function<void(const std::string&)>;

// Sends `message` to the warden, which answers every question with a warden_snapshot. The
// warden goes in as a spawn argument rather than a capture: CAF 0.17.6 binds a null
// reference when an actor is spawned without arguments, which UBSan stops.
template <class... message_types>
void ask_warden(const control_context& context, snapshot_handler on_answer,
                failure_handler on_failure, message_types... message) {
  auto& system = context.system;
  context.system.spawn(
      [=, &system](caf::event_based_actor* self, const warden_actor& warden) {
        self->request(warden, warden_answer_timeout, message...)
            .then([=](const warden_snapshot& snapshot) { on_answer(snapshot); },
                  [=, &system](caf::error& error) { on_failure(system.render(error)); });
      },
      context.warden);
}

// Finishes a unary call at once, without asking the warden (a refused call).
inline grpc::ServerUnaryReactor* finish_now(grpc::CallbackServerContext* call,
                                            grpc::Status status) {
  auto* reactor = call->DefaultReactor();
  reactor->Finish(std::move(status));
  return reactor;
}

// Finishes a unary call with the warden's answer to `message`, which `fill` writes into
// `response`. gRPC owns `response` until the call is finished, which happens only here.
template <class response_type, class... message_types>
grpc::ServerUnaryReactor* answer_from_warden(const control_context& context,
                                             grpc::CallbackServerContext* call,
                                             response_type* response,
                                             response_filler<response_type> fill,
                                             message_types... message) {
  auto* reactor = call->DefaultReactor();
  ask_warden(
      context,
      [=, wall_clock = context.wall_clock](const warden_snapshot& snapshot) {
        fill(snapshot, wall_clock->wall_time_of(snapshot.now), *response);
        reactor->Finish(grpc::Status::OK);
      },
      [=](const std::string& why) {
        reactor->Finish(
            {grpc::StatusCode::UNAVAILABLE, "runwarden's warden did not answer: " + why});
      },
      std::move(message)...);
  return reactor;
}

}  // namespace runwarden
