// See github_unregistration.hpp. Failures common to both calls are classified once, in
// classify_github_failure, so the lookup and the delete treat a rate limit the same way.
#include "src/unregister/github_unregistration.hpp"

#include <nlohmann/json.hpp>

#include "src/unregister/answer_text.hpp"
#include "src/unregister/server_wait.hpp"
#include "src/util/uri_encoding.hpp"

namespace runwarden {

namespace {

using json = nlohmann::json;

std::string runners_url(const github_runner& runner) {
  std::string base = runner.api_url;
  while (base.ends_with('/')) base.pop_back();
  switch (runner.scope) {
    case github_scope::repo:
      return base + "/repos/" + uri_encode(runner.owner, slash_encoding::encode) + "/" +
             uri_encode(runner.repo, slash_encoding::encode) + "/actions/runners";
    case github_scope::org:
      return base + "/orgs/" + uri_encode(runner.org, slash_encoding::encode) + "/actions/runners";
    case github_scope::enterprise:
      return base + "/enterprises/" + uri_encode(runner.enterprise, slash_encoding::encode) +
             "/actions/runners";
  }
  return base;  // Only a value cast from outside the enum gets here.
}

http_request github_request(std::string method, std::string url, const github_runner& runner,
                            std::string_view user_agent) {
  http_request request;
  request.method = std::move(method);
  request.url = std::move(url);
  request.headers = {{"accept", "application/vnd.github+json"},
                     {"authorization", "Bearer " + runner.token},
                     {"x-github-api-version", "2022-11-28"},
                     {"user-agent", std::string{user_agent}}};
  return request;
}

bool shows_rate_limit(const http_response& answer) {
  if (*answer.status_code == 429) return true;
  if (*answer.status_code != 403) return false;
  const std::string* remaining = find_header(answer, "x-ratelimit-remaining");
  return find_header(answer, "retry-after") != nullptr ||
         (remaining != nullptr && *remaining == "0") ||
         answer.body.find("rate limit") != std::string::npos;
}

// An answer that is neither the success nor the meaning each call gives its own statuses.
unregister_outcome classify_github_failure(const github_runner& runner, const http_response& answer,
                                           std::string_view call) {
  const std::string answer_text = describe_answer(answer, runner.token);
  unregister_outcome outcome;
  if (!answer.status_code) {
    outcome = {outcome_kind::transient, std::string{call} + ": " + answer_text};
  } else if (shows_rate_limit(answer)) {
    outcome = {outcome_kind::rate_limited,
               std::string{call} + ": GitHub's rate limit (" + answer_text + ")"};
  } else if (*answer.status_code == 408 || *answer.status_code >= 500) {
    outcome = {outcome_kind::transient, std::string{call} + ": " + answer_text};
  } else {
    outcome = {outcome_kind::refused,
               std::string{call} + ": GitHub refused the request (" + answer_text +
                   "); check the token's permissions, the scope and the API URL"};
  }
  read_server_wait(answer, outcome);
  return outcome;
}

github_lookup failed_lookup(unregister_outcome outcome) {
  return {github_lookup_kind::failed, 0, std::move(outcome)};
}

github_lookup not_json(const github_runner& runner, const http_response& answer,
                       std::string_view problem) {
  return failed_lookup(
      {outcome_kind::refused, "listing runners: the answer is not GitHub's runner list (" +
                                  std::string{problem} + "; " +
                                  describe_answer(answer, runner.token) + ")"});
}

}  // namespace

http_request github_lookup_request(const github_runner& runner, std::uint32_t page,
                                   std::string_view user_agent) {
  auto request = github_request(
      "GET",
      runners_url(runner) + "?name=" + uri_encode(runner.runner_name, slash_encoding::encode) +
          "&per_page=" + std::to_string(github_runners_per_page) + "&page=" + std::to_string(page),
      runner, user_agent);
  request.max_response_bytes = github_list_bytes_max;
  return request;
}

http_request github_delete_request(const github_runner& runner, std::int64_t runner_id,
                                   std::string_view user_agent) {
  return github_request("DELETE", runners_url(runner) + "/" + std::to_string(runner_id), runner,
                        user_agent);
}

github_lookup classify_github_lookup(const github_runner& runner, const http_response& answer,
                                     std::uint32_t page) {
  if (!answer.status_code || *answer.status_code != 200)
    return failed_lookup(classify_github_failure(runner, answer, "listing runners"));
  const json list = json::parse(answer.body, nullptr, false);
  if (list.is_discarded()) return not_json(runner, answer, "not valid JSON");
  if (!list.is_object() || !list.contains("runners") || !list["runners"].is_array())
    return not_json(runner, answer, "no \"runners\" array");
  const json& runners = list["runners"];
  for (const json& entry : runners) {
    if (!entry.is_object() || !entry.contains("name") || !entry.contains("id") ||
        !entry["name"].is_string() || !entry["id"].is_number_integer())
      return not_json(runner, answer, "a runner without a string name and an integer id");
    if (entry["name"].get<std::string>() == runner.runner_name)
      return {github_lookup_kind::found, entry["id"].get<std::int64_t>(), {}};
  }
  const auto total = list.value("total_count", json{});
  const bool more = total.is_number_unsigned() && !runners.empty() &&
                    total.get<std::uint64_t>() > std::uint64_t{page} * github_runners_per_page;
  if (more && page < github_lookup_pages_max) return {github_lookup_kind::next_page, 0, {}};
  if (more)
    return failed_lookup({outcome_kind::refused, "listing runners: still more pages after " +
                                                     std::to_string(github_lookup_pages_max) +
                                                     "; giving up this round"});
  return failed_lookup({outcome_kind::already_gone,
                        "GitHub lists no runner of this name, so it is already unregistered"});
}

unregister_outcome classify_github_delete(const github_runner& runner,
                                          const http_response& answer) {
  const std::string answer_text = describe_answer(answer, runner.token);
  if (answer.status_code && *answer.status_code >= 200 && *answer.status_code < 300)
    return {outcome_kind::unregistered, "GitHub removed it (" + answer_text + ")"};
  if (answer.status_code == 404)
    return {outcome_kind::already_gone,
            "GitHub no longer knows this runner id, so it is already unregistered (" + answer_text +
                ")"};
  if (answer.status_code == 422) {
    unregister_outcome busy{
        outcome_kind::busy,
        "the runner is still running a job; waiting for it (" + answer_text + ")"};
    read_server_wait(answer, busy);
    return busy;
  }
  return classify_github_failure(runner, answer, "deleting the runner");
}

}  // namespace runwarden
