#pragma once
// The unregistrar's side of a GitLab token rotation: it reads the runner's token again from
// gitlab-runner's config.toml before each attempt, and after a 403 lets
// src/unregister/token_rotation.hpp judge whether the token was rotated (try again at once
// with the new one) or the runner removed (done). The decisions are pure; this file only
// reads through the wiring's read_token and logs, by the runner's label, never a token.

#include <optional>

#include "actors/unregistrar/unregistrar_actor.hpp"

namespace runwarden {

// Before a GitLab attempt: the token config.toml holds now, when it changed.
void refresh_before_attempt(const unregistrar_wiring& wiring, runner_progress& runner);

struct refusal_step {
  bool try_again_now = false;  // rotated: the token is replaced; send the DELETE again now
  unregister_outcome outcome;  // otherwise: how the attempt ended
};

// After GitLab's 403 for `runner`; nullopt when its token has no source to read again (the
// classifier's "already gone" stands).
std::optional<refusal_step> step_after_refusal(const unregistrar_wiring& wiring,
                                               runner_progress& runner,
                                               const http_response& answer);

}  // namespace runwarden
