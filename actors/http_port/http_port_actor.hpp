#pragma once
// The production HTTP port: a thin actor in front of the HTTP worker thread. It only hands
// jobs over, so it never blocks a CAF worker; the answers come from the worker thread.
// Tests and the simulation put a scripted actor with the same interface here.

#include <memory>

#include "messages/http_messages.hpp"
#include "src/ports/http/http_worker.hpp"

namespace runwarden {

// The port does not own the worker's thread: whoever spawned the port stops the worker
// (http_worker::stop joins, and a CAF worker must not wait for a transfer).
http_port_actor::behavior_type http_port(http_port_actor::pointer self,
                                         std::shared_ptr<http_worker> worker);

}  // namespace runwarden
