// See gitlab_unregistration.hpp.
#include "src/unregister/gitlab_unregistration.hpp"

#include "src/unregister/answer_text.hpp"
#include "src/unregister/server_wait.hpp"
#include "src/util/assert.hpp"
#include "src/util/form_encoding.hpp"

namespace runwarden {

namespace {

std::string api_base(std::string url) {
  while (url.ends_with('/')) url.pop_back();
  return url + "/api/v4";
}

outcome_kind kind_of_status(int status, bool manager) {
  if (status >= 200 && status < 300) return outcome_kind::unregistered;
  if (status == 403) return outcome_kind::already_gone;
  if (status == 404 && manager) return outcome_kind::already_gone;
  if (status == 429) return outcome_kind::rate_limited;
  if (status == 408 || status >= 500) return outcome_kind::transient;
  return outcome_kind::refused;
}

std::string text_for(outcome_kind kind, const std::string& answer_text, bool manager) {
  switch (kind) {
    case outcome_kind::unregistered:
      return "GitLab removed it (" + answer_text + ")";
    case outcome_kind::already_gone:
      return manager ? "GitLab no longer knows this runner manager or its token, so it is "
                       "already unregistered (" +
                           answer_text + ")"
                     : "GitLab no longer knows this runner token, so it is already "
                       "unregistered (" +
                           answer_text + ")";
    case outcome_kind::refused:
      return "GitLab refused the request (" + answer_text + "); check the URL and the token";
    case outcome_kind::transient:
    case outcome_kind::busy:
    case outcome_kind::rate_limited:
      break;
  }
  return "GitLab did not unregister it (" + answer_text + ")";
}

}  // namespace

http_request gitlab_unregister_request(const gitlab_runner& runner) {
  const bool manager = uses_runner_manager(runner);
  RUNWARDEN_ASSERT(!manager || !runner.system_id.empty());
  http_request request;
  request.method = "DELETE";
  request.url = api_base(runner.url) + (manager ? "/runners/managers" : "/runners");
  request.headers = {{"content-type", "application/x-www-form-urlencoded"},
                     {"accept", "application/json"}};
  request.body = manager ? form_encode({{"token", runner.token}, {"system_id", runner.system_id}})
                         : form_encode({{"token", runner.token}});
  return request;
}

unregister_outcome classify_gitlab_answer(const gitlab_runner& runner,
                                          const http_response& answer) {
  const bool manager = uses_runner_manager(runner);
  const std::string answer_text = describe_answer(answer, runner.token);
  const outcome_kind kind =
      answer.status_code ? kind_of_status(*answer.status_code, manager) : outcome_kind::transient;
  unregister_outcome outcome{kind, text_for(kind, answer_text, manager)};
  read_server_wait(answer, outcome);
  return outcome;
}

bool gitlab_refused_token(const http_response& answer) { return answer.status_code == 403; }

}  // namespace runwarden
