#pragma once
// Telling a rotated token from a removed runner. GitLab answers DELETE /api/v4/runners and
// DELETE /api/v4/runners/managers with 403 for any token it does not accept
// (authenticate_runner! in lib/api/ci/runner.rb): the token of a runner that was removed,
// and equally the old token of a runner whose token gitlab-runner has just reset (POST
// /api/v4/runners/reset_authentication_token; doc/api/runners.md). gitlab-runner then
// writes the new token into config.toml. So config.toml decides:
//
//   403, and config.toml now holds another usable token -> rotated: try again at once with
//                                                          it (at most rotated_retries_max
//                                                          times in a row)
//   403, and config.toml still holds the refused token  -> removed: done, said loudly
//   403, and config.toml no longer lists the runner     -> removed (`gitlab-runner
//                                                          unregister` drops the entry)
//   403, and config.toml has no usable token for it     -> removed: nothing left to try
//   403, and config.toml cannot be read                 -> unknown: retried with backoff,
//                                                          reported as an error each time
//
// POST /api/v4/runners/verify is not asked: it authenticates the token exactly as the
// DELETE does, so its 403 would say no more than the DELETE's. The runner is gone when
// runwarden unregisters it, so nobody rotates its token any more: config.toml is final.
// Pure; texts never contain a token.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/unregister/gitlab_token_source.hpp"

namespace runwarden {

// Immediate retries after rotations in a row, before the usual backoff takes over (a file
// that changes at every reading must not make a busy loop).
inline constexpr std::uint32_t rotated_retries_max = 3;

// The token for the next attempt, read again before it.
struct attempt_token {
  std::optional<std::string> replacement;  // set when config.toml holds a new usable token
  std::string note;                        // for the log; empty when there is nothing to say
  bool warning = false;                    // the note is a warning (the file did not help)
};

attempt_token choose_attempt_token(std::string_view current, const token_reading& now);

enum class rejected_token_verdict : std::uint8_t { rotated, removed, unknown };

std::string_view to_string(rejected_token_verdict verdict);

struct rejected_token_judgement {
  rejected_token_verdict verdict = rejected_token_verdict::unknown;
  std::optional<std::string> replacement;  // rotated: the token to try now
  std::string text;                        // why, for the log and the status
};

// After GitLab refused `sent` with 403, what config.toml, read again, says it means.
rejected_token_judgement judge_rejected_token(std::string_view sent, const token_reading& now);

}  // namespace runwarden
