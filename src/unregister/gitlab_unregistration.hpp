#pragma once
// Unregistering a runner from GitLab, as gitlab-runner's own `unregister` does it: a token
// starting with "glrt-" removes only this machine's manager (DELETE /api/v4/runners/managers
// with the token and the system id), an older token removes the runner (DELETE
// /api/v4/runners with the token). Both send the values as a form body, so the token is
// never in a URL that a proxy could log.
//
// The answers: 204 is done; 403 means GitLab no longer knows the token, and 404 for a
// manager that the manager is gone, both done (the runner is not registered any more) but
// reported loudly; 429, 5xx and no answer are retried; anything else (400, 401, a 404 from
// the legacy endpoint, which means the URL is not a GitLab API) is retried too, reported as
// an error each time, since a wrong token must never silently end the retries.

#include "src/unregister/unregister_outcome.hpp"
#include "src/unregister/unregister_target.hpp"
#include "src/util/http_exchange.hpp"

namespace runwarden {

// The DELETE for `runner` (id, timeout and pins are the caller's). A glrt- token needs a
// system id: deleting the runner instead would unregister every machine sharing the token.
http_request gitlab_unregister_request(const gitlab_runner& runner);

unregister_outcome classify_gitlab_answer(const gitlab_runner& runner, const http_response& answer);

// GitLab's 403: it did not accept the token (a removed runner, or a rotated token); what
// it means is token_rotation.hpp's to judge when the token has a source.
bool gitlab_refused_token(const http_response& answer);

}  // namespace runwarden
