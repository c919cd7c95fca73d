#pragma once
// The vocabulary of the HTTP port: what an actor asks of it (a host lookup, a request) and
// what the port answers, the values of src/util/http_exchange.hpp. Logic actors never open a
// socket or resolve a name themselves; they send these to the port, and the port answers the
// asking actor with anon_send. Production wires the HTTP port (plain HTTP with Boost.Beast on
// the io thread, the rest with libcurl), tests and the simulation a scripted actor with the
// same interface.
//
// The messages never leave the process, so they are allowed as unsafe local types rather
// than given inspect() overloads CAF 0.17 could not apply to std::optional anyway.

#include "caf/all.hpp"
#include "src/util/http_exchange.hpp"

namespace runwarden {

// The HTTP port. Every accepted message gets exactly one answer, sent to the asking actor;
// a full queue or a stopped port answers at once with an error.
using http_port_actor = caf::typed_actor<caf::reacts_to<host_lookup>, caf::reacts_to<http_request>>;

// What the port sends an actor that asked it for a request: the response (a
// host_lookup_result too, to one that asked for a lookup).
using http_requester_actor = caf::typed_actor<caf::reacts_to<http_response>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::host_lookup)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::host_lookup_result)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::http_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::http_response)
