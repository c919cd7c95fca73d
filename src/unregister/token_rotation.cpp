// See token_rotation.hpp.
#include "src/unregister/token_rotation.hpp"

namespace runwarden {

namespace {

bool usable(const secret_text& token) {
  return token.reveal().find_first_not_of(" \t\n\v\f\r") != std::string_view::npos;
}

}  // namespace

attempt_token choose_attempt_token(std::string_view current, const token_reading& now) {
  switch (now.kind) {
    case token_reading_kind::found:
      if (!usable(now.token))
        return {std::nullopt,
                "gitlab-runner's config.toml holds no usable token for it now; the token read "
                "before is used",
                true};
      if (now.token.reveal() == current) return {};
      return {std::string{now.token.reveal()},
              "gitlab-runner's config.toml holds a new token for it (gitlab-runner rotated it); "
              "this attempt uses the new one",
              false};
    case token_reading_kind::entry_missing:
      return {std::nullopt,
              "gitlab-runner's config.toml no longer lists it; the token read before is used",
              true};
    case token_reading_kind::unreadable:
      return {std::nullopt,
              "gitlab-runner's config.toml could not be read again (" + now.problem +
                  "); the token read before is used",
              true};
  }
  return {};  // Only a value cast from outside the enum gets here.
}

std::string_view to_string(rejected_token_verdict verdict) {
  switch (verdict) {
    case rejected_token_verdict::rotated:
      return "rotated";
    case rejected_token_verdict::removed:
      return "removed";
    case rejected_token_verdict::unknown:
      return "unknown";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

rejected_token_judgement judge_rejected_token(std::string_view sent, const token_reading& now) {
  using verdict = rejected_token_verdict;
  switch (now.kind) {
    case token_reading_kind::found:
      if (!usable(now.token))
        return {verdict::removed, std::nullopt,
                "GitLab refused its token, and gitlab-runner's config.toml holds no usable "
                "token for it any more: counted as removed"};
      if (now.token.reveal() != sent)
        return {verdict::rotated, std::string{now.token.reveal()},
                "GitLab refused a token that gitlab-runner has since replaced in its "
                "config.toml (a token rotation): trying again at once with the new one"};
      return {verdict::removed, std::nullopt,
              "GitLab refused the token that gitlab-runner's config.toml still holds: the "
              "runner was removed from GitLab"};
    case token_reading_kind::entry_missing:
      return {verdict::removed, std::nullopt,
              "GitLab refused its token, and gitlab-runner's config.toml no longer lists it "
              "(as `gitlab-runner unregister` leaves it): the runner was removed"};
    case token_reading_kind::unreadable:
      return {verdict::unknown, std::nullopt,
              "GitLab refused its token, and gitlab-runner's config.toml could not be read "
              "again to tell a rotated token from a removed runner (" +
                  now.problem + ")"};
  }
  return {};  // Only a value cast from outside the enum gets here.
}

}  // namespace runwarden
