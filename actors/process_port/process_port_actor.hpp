#pragma once
// The production process port: a thin actor in front of the child process host on the io
// thread. Tests and the simulation put a scripted actor with the same interface here.

#include <memory>

#include "messages/warden_messages.hpp"
#include "src/ports/os/child_process_host.hpp"

namespace runwarden {

process_port_actor::behavior_type process_port(process_port_actor::pointer self,
                                               std::shared_ptr<child_process_host> host);

}  // namespace runwarden
