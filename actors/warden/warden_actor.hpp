#pragma once
// The warden: the coordinator actor around the drain machine. It turns messages into
// machine events, stamps them with the actor clock's time (virtual under the test
// coordinator), and turns the machine's effects into messages to its ports. It decides
// nothing itself.

#include <functional>

#include "caf/all.hpp"
#include "messages/warden_messages.hpp"
#include "src/drain/drain_machine.hpp"

namespace runwarden {

struct warden_state {
  static inline const char* name = "warden";
  std::optional<drain_machine> machine;
  process_port_actor process_port;
  caf::actor exit_listener;
  // Observes every effect after it is carried out (logging, and tests in virtual time).
  std::function<void(const drain_effect&, instant)> observer;
};

struct warden_wiring {
  drain_config config;
  process_port_actor process_port;
  caf::actor exit_listener;  // receives one warden_exited, then the warden quits
  std::function<void(const drain_effect&, instant)> observer;
};

caf::behavior warden_actor(caf::stateful_actor<warden_state>* self, warden_wiring wiring);

// Maps a signal runwarden itself received to the machine event it means; nullopt for
// signals runwarden does not act on.
std::optional<drain_event> event_for_os_signal(int signal_number);

}  // namespace runwarden
