#pragma once
// The production HTTP port: a thin actor that hands each job to the client that carries it
// out, so it never blocks a CAF worker; the answers come from that client. Plain-HTTP
// requests not sent through a proxy (the metadata service, the runner's /metrics) go to the
// io thread when the port has a plain client; https, proxied requests and host lookups go
// to the libcurl worker thread, which starts with the first of them.
// Tests and the simulation put a scripted actor with the same interface here.

#include <memory>

#include "messages/http_messages.hpp"
#include "src/ports/http/http_worker.hpp"

namespace runwarden {

class plain_http_client;

// The port owns neither client's work: whoever spawned the port stops them (http_worker::stop
// joins, and a CAF worker must not wait for a transfer). `plain` may be null: everything then
// goes to the worker.
http_port_actor::behavior_type http_port(http_port_actor::pointer self,
                                         std::shared_ptr<http_worker> worker,
                                         std::shared_ptr<plain_http_client> plain);

// Whether the io thread's plain client carries this request: http:// and no proxy.
bool goes_to_plain_client(const http_request& request);

}  // namespace runwarden
