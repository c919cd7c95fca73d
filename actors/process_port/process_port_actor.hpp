#pragma once
// The production process port: a thin actor in front of the runner's host (the keeper's
// link, or this process's own children) on the io thread. Tests and the simulation put a
// scripted actor with the same interface here.
// It holds the host weakly: the host's asio objects must die before the io_context that
// serves them, and an actor's behaviour may outlive the function that started it.

#include <memory>

#include "messages/warden_messages.hpp"
#include "src/ports/os/runner_host.hpp"

namespace runwarden {

process_port_actor::behavior_type process_port(process_port_actor::pointer self,
                                               std::weak_ptr<runner_host> host);

}  // namespace runwarden
