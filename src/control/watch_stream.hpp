#pragma once
// Watch: a server-streaming call fed by a subscriber actor. The actor subscribes to the
// warden and offers each snapshot to the stream; the stream writes one message at a time
// and keeps only the latest one waiting, so a slow reader costs one message of memory and
// sees the newest status next, never a backlog. The stream ends with OK right after the
// status that says gone, with UNAVAILABLE if the warden stops, and with CANCELLED when the
// client goes away; in every case the subscriber unsubscribes and ends. Past
// watch_streams_max open streams (open_watches.hpp) a call ends at once with
// RESOURCE_EXHAUSTED, and so does one the warden refuses (status_subscribers_max).

#include <grpcpp/support/server_callback.h>

#include "runwarden/v1/warden.pb.h"
#include "src/control/warden_bridge.hpp"

namespace runwarden {

// The reactor for one Watch call; it deletes itself once gRPC is done with it.
grpc::ServerWriteReactor<v1::StatusResponse>* start_watch(const control_context& context);

// A Watch call refused before it started (a missing token): finishes with `status`.
grpc::ServerWriteReactor<v1::StatusResponse>* refuse_watch(grpc::Status status);

}  // namespace runwarden
