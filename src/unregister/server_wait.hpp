#pragma once
// How long a server asks to be left alone, read from its answer's headers: Retry-After as
// delta-seconds (the form GitHub and GitLab send; an HTTP-date is ignored, and the retry
// schedule's own fallback applies), and the epoch second at which a rate-limit window
// resets (GitHub's x-ratelimit-reset, GitLab's ratelimit-reset). A value that is not a plain
// number is ignored rather than trusted.

#include "src/unregister/unregister_outcome.hpp"
#include "src/util/http_exchange.hpp"

namespace runwarden {

// Sets `outcome.retry_after` and `outcome.reset_at` from the headers that carry them.
void read_server_wait(const http_response& answer, unregister_outcome& outcome);

}  // namespace runwarden
