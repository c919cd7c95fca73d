// See gitlab_token_refresh.hpp.
#include "actors/unregistrar/gitlab_token_refresh.hpp"

#include "src/logging/logging.hpp"
#include "src/unregister/answer_text.hpp"
#include "src/unregister/token_rotation.hpp"

namespace runwarden {

namespace {

const gitlab_token_source* source_of(const unregistrar_wiring& wiring,
                                     const runner_progress& runner) {
  const auto* gitlab = std::get_if<gitlab_runner>(&runner.target);
  if (gitlab == nullptr || !gitlab->token_source || !wiring.read_token) return nullptr;
  return &*gitlab->token_source;
}

}  // namespace

void refresh_before_attempt(const unregistrar_wiring& wiring, runner_progress& runner) {
  const gitlab_token_source* source = source_of(wiring, runner);
  if (source == nullptr) return;
  auto& gitlab = std::get<gitlab_runner>(runner.target);
  const attempt_token choice = choose_attempt_token(gitlab.token, wiring.read_token(*source));
  if (choice.replacement) gitlab.token = *choice.replacement;
  if (choice.note.empty()) return;
  if (choice.warning)
    warden_logger()->warn("unregistering {}: {}", runner.status.runner, choice.note);
  else
    warden_logger()->info("unregistering {}: {}", runner.status.runner, choice.note);
}

std::optional<refusal_step> step_after_refusal(const unregistrar_wiring& wiring,
                                               runner_progress& runner,
                                               const http_response& answer) {
  const gitlab_token_source* source = source_of(wiring, runner);
  if (source == nullptr) return std::nullopt;
  auto& gitlab = std::get<gitlab_runner>(runner.target);
  const std::string answer_text = describe_answer(answer, gitlab.token);
  const rejected_token_judgement judged =
      judge_rejected_token(gitlab.token, wiring.read_token(*source));
  const std::string text = judged.text + " (" + answer_text + ")";
  switch (judged.verdict) {
    case rejected_token_verdict::rotated:
      gitlab.token = *judged.replacement;
      if (runner.rotations_in_a_row < rotated_retries_max) {
        ++runner.rotations_in_a_row;
        warden_logger()->warn("unregistering {}: {}", runner.status.runner, text);
        return refusal_step{true, {}};
      }
      return refusal_step{
          false, {outcome_kind::transient, text + "; rotated too often in a row, so after a wait"}};
    case rejected_token_verdict::removed:
      return refusal_step{false, {outcome_kind::already_gone, text}};
    case rejected_token_verdict::unknown:
      return refusal_step{false, {outcome_kind::refused, text}};
  }
  return std::nullopt;  // Only a value cast from outside the enum gets here.
}

}  // namespace runwarden
