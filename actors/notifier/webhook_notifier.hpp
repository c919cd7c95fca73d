#pragma once
// The notifier as `runwarden run` plans it, for the assembly to start under the instance's
// tree (child_id::notifier): plan_notifier checks the settings first and refuses bad ones
// with a message naming the problem: an unreadable secret file, an invalid URL, a numeric
// link-local URL, a zero timeout.
//
// The notifier runs under a supervisor of its own, so a crash restarts it on the same port:
// nobody should keep its handle, but listen to the supervisor (as the warden does) or ask it
// for the current one. Exit path: after the warden reports gone, flush_notifier with a
// bound, then stop the instance, then let the actor system go.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "actors/notifier/notifier_actor.hpp"
#include "actors/supervisor/supervisor_actor.hpp"
#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/notifier_messages.hpp"
#include "src/config/settings.hpp"
#include "src/webhook/notification_values.hpp"

namespace runwarden {

struct notifier_plan_result {
  std::optional<notifier_wiring> wiring;  // its http_port still empty; set when error is empty
  std::string error;
};

// The notifier's wiring for these settings, checked in full (the refusals above).
notifier_plan_result plan_notifier(const webhook_settings& settings, std::uint64_t random_seed,
                                   delivery_observer observer, runner_identity runner = {});

// Blocks the calling thread (never a CAF worker) until the notifier running under
// `supervisor` has no delivery pending or `wait_max` passed; true when everything pending
// was delivered or given up.
bool flush_notifier(caf::actor_system& system, const supervisor_actor& supervisor,
                    std::chrono::milliseconds wait_max);

}  // namespace runwarden
