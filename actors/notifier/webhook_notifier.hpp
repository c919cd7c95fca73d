#pragma once
// The notifier as `runwarden run` wires it: the notifier actor on the production HTTP port
// (libcurl on its own worker thread). spawn_notifier checks the settings first and refuses
// bad ones with a message naming the problem: an unreadable secret file, an invalid URL, a
// numeric link-local URL, a zero timeout. The returned handle owns the worker thread, which
// is why stopping goes through it and not through the actors alone.
//
// The notifier runs under a supervisor of its own (child child_id::notifier, permanent), so
// a crash restarts it on the same port: nobody should keep its handle, but listen to the
// supervisor (as the warden does) or ask it for the current one.
//
// Exit path: after the warden reports gone, flush() with a bound, then stop(), then let the
// actor system go.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "actors/notifier/notifier_actor.hpp"
#include "actors/supervisor/supervisor_actor.hpp"
#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/notifier_messages.hpp"
#include "src/config/settings.hpp"
#include "src/ports/http/http_worker.hpp"
#include "src/webhook/notification_values.hpp"

namespace runwarden {

class webhook_notifier {
 public:
  webhook_notifier(supervisor_actor supervisor, http_port_actor port,
                   std::shared_ptr<http_worker> worker);

  // Sends a child_incarnation of the notifier at every (re)start to listeners:
  // (caf::subscribe_atom, listener).
  const supervisor_actor& supervisor() const { return supervisor_; }

  // The notifier running now, asked of the supervisor; invalid when none runs. Blocks the
  // calling thread (never a CAF worker) for at most `wait_max`.
  caf::actor current_notifier(caf::actor_system& system, std::chrono::milliseconds wait_max) const;

  // Blocks the calling thread (never a CAF worker) until no delivery is pending or
  // `wait_max` passed; true when everything pending was delivered or given up.
  bool flush(caf::actor_system& system, std::chrono::milliseconds wait_max) const;

  // Ends the supervisor (and so the notifier), the port, and joins the worker thread, which
  // takes at most one request timeout. Deliveries still pending are given up. Safe to call
  // twice.
  void stop();

 private:
  supervisor_actor supervisor_;
  http_port_actor port_;
  std::shared_ptr<http_worker> worker_;
};

struct notifier_spawn_result {
  std::optional<webhook_notifier> notifier;  // set exactly when error is empty
  std::string error;
};

struct notifier_plan_result {
  std::optional<notifier_wiring> wiring;  // its http_port still empty; set when error is empty
  std::string error;
};

// The notifier's wiring for these settings, checked in full (the refusals above).
notifier_plan_result plan_notifier(const webhook_settings& settings, std::uint64_t random_seed,
                                   delivery_observer observer, runner_identity runner = {});

// The notifier as a supervised child (child_id::notifier, permanent): each incarnation starts
// from `wiring`, whose http_port must be set; only pending deliveries die with one.
supervised_child notifier_child(notifier_wiring wiring);

// Blocks the calling thread (never a CAF worker) until the notifier running under
// `supervisor` has no delivery pending or `wait_max` passed; true when everything pending
// was delivered or given up.
bool flush_notifier(caf::actor_system& system, const supervisor_actor& supervisor,
                    std::chrono::milliseconds wait_max);

// An empty settings.url still gives a notifier: shutdown callbacks need one.
notifier_spawn_result spawn_notifier(caf::actor_system& system, const webhook_settings& settings,
                                     std::uint64_t random_seed, delivery_observer observer,
                                     runner_identity runner = {});

}  // namespace runwarden
