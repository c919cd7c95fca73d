#pragma once
// What one attempt to unregister a runner came to, as the GitLab and GitHub classifiers see
// an answer, before the retry schedule decides what follows. The text is a sentence for
// reports: never the token, at most a short sanitized excerpt of the server's body.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

enum class outcome_kind : std::uint8_t {
  unregistered,  // the server confirmed the removal
  already_gone,  // the server no longer knows the runner or its token: done, said loudly
  transient,     // no answer, a timeout, 5xx: try again later
  busy,          // GitHub: the runner is still running a job; wait, never force
  rate_limited,  // 429, or GitHub's 403 with its rate-limit signs
  refused,       // any other answer (401, 400, an HTML page): retried, reported as an error
};

std::string_view to_string(outcome_kind kind);

struct unregister_outcome {
  outcome_kind kind = outcome_kind::transient;
  std::string text = {};
  // What the server asked for: a Retry-After in seconds, or the epoch second at which its
  // rate-limit window resets (x-ratelimit-reset, ratelimit-reset).
  std::optional<std::chrono::seconds> retry_after = std::nullopt;
  std::optional<std::chrono::system_clock::time_point> reset_at = std::nullopt;
};

inline bool is_done(outcome_kind kind) {
  return kind == outcome_kind::unregistered || kind == outcome_kind::already_gone;
}

}  // namespace runwarden
