// What runwarden asks GitLab and GitHub to unregister a runner, and what it makes of their
// answers, as tables. Bodies include what real servers and proxies send when things go
// wrong (HTML error pages, truncated JSON, binary junk): none may crash, and no report text
// may contain the token, even when the server echoes it back.
#include <catch2/catch.hpp>

#include "src/unregister/answer_text.hpp"
#include "src/unregister/github_unregistration.hpp"
#include "src/unregister/gitlab_unregistration.hpp"
#include "src/util/form_encoding.hpp"
#include "src/util/uri_encoding.hpp"

namespace {

using namespace runwarden;

const std::string manager_token = "glrt-SeCrEt_manager_token";
const std::string legacy_token = "LeGaCy-SeCrEt";
const std::string github_token = "ghp_SeCrEtGitHubToken";

gitlab_runner manager_runner() {
  return {"build-1", "https://gitlab.example.com/", manager_token, "s_0123456789ab"};
}

github_runner repo_runner() {
  github_runner runner;
  runner.api_url = "https://ghe.example.com/api/v3/";
  runner.owner = "acme";
  runner.repo = "widgets";
  runner.runner_name = "ci box/1";
  runner.token = github_token;
  return runner;
}

http_response answer(int status, std::string body = {}, http_header_list headers = {}) {
  return {.id = 1, .status_code = status, .body = std::move(body), .headers = std::move(headers)};
}

http_response no_answer(std::string error) {
  return {.id = 1, .transport_error = std::move(error)};
}

const std::string html_page =
    "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\r\n<body>\t<h1>Bad "
    "Gateway</h1>" +
    std::string(500, 'x') + "</body></html>";

}  // namespace

TEST_CASE("percent and form encoding keep only unreserved bytes", "[unregister]") {
  CHECK(uri_encode("aZ09-._~", slash_encoding::encode) == "aZ09-._~");
  CHECK(uri_encode("a b/c&d=\xff", slash_encoding::encode) == "a%20b%2Fc%26d%3D%FF");
  CHECK(form_encode({{"token", "glrt-x+y"}, {"system_id", "s_1"}}) ==
        "token=glrt-x%2By&system_id=s_1");
}

TEST_CASE("answer excerpts are short, one line, printable and without the token", "[unregister]") {
  CHECK(redact("a SECRET b SECRETSECRET", "SECRET") == "a [redacted] b [redacted][redacted]");
  CHECK(redact("abc", "") == "abc");
  const auto excerpt = answer_excerpt(html_page, "");
  CHECK(
      excerpt.starts_with("<!DOCTYPE html> <html><head><title>502 Bad Gateway</title></head> "
                          "<body> <h1>Bad Gateway</h1>"));
  CHECK(excerpt.size() == answer_excerpt_bytes_max + 3);
  CHECK(excerpt.ends_with("..."));
  CHECK(answer_excerpt(std::string{"\x01\x80ok\0z", 6}, "") == "??ok?z");
  CHECK(answer_excerpt("  \n ", "") == "");
  CHECK(answer_excerpt("echo " + manager_token, manager_token) == "echo [redacted]");
  CHECK(describe_answer(answer(500), "") == "HTTP 500 (empty body)");
  CHECK(describe_answer(no_answer("timed out"), "") == "no answer: timed out");
}

TEST_CASE("gitlab: glrt- tokens delete the manager, older tokens the runner", "[unregister]") {
  const auto manager = gitlab_unregister_request(manager_runner());
  CHECK(manager.method == "DELETE");
  CHECK(manager.url == "https://gitlab.example.com/api/v4/runners/managers");
  CHECK(manager.body == "token=" + manager_token + "&system_id=s_0123456789ab");
  CHECK(manager.headers.at(0) ==
        std::pair<std::string, std::string>{"content-type", "application/x-www-form-urlencoded"});
  gitlab_runner legacy{"", "https://gitlab.example.com", legacy_token, "s_1"};
  const auto runner = gitlab_unregister_request(legacy);
  CHECK(runner.url == "https://gitlab.example.com/api/v4/runners");
  CHECK(runner.body == "token=" + legacy_token);
  CHECK(runner.url.find(legacy_token) == std::string::npos);
}

TEST_CASE("gitlab answers: done, already gone, retried, or an error", "[unregister]") {
  gitlab_runner legacy{"", "https://gitlab.example.com", legacy_token, ""};
  struct row {
    bool manager;
    http_response answer;
    outcome_kind kind;
    std::string text_has;
  };
  const row rows[] = {
      {true, answer(204), outcome_kind::unregistered, "GitLab removed it (HTTP 204"},
      {true, answer(403, R"({"message":"403 Forbidden"})"), outcome_kind::already_gone,
       "no longer knows this runner manager"},
      {false, answer(403), outcome_kind::already_gone, "no longer knows this runner token"},
      {true, answer(404, R"({"message":"404 Not Found"})"), outcome_kind::already_gone,
       "already unregistered"},
      {false, answer(404, html_page), outcome_kind::refused, "check the URL and the token"},
      {true, answer(429, "", {{"retry-after", "30"}}), outcome_kind::rate_limited, "HTTP 429"},
      {true, answer(500, html_page), outcome_kind::transient, "Bad Gateway"},
      {true, answer(503, R"({"message":"trunc)"), outcome_kind::transient, "trunc"},
      {true, no_answer("Operation timed out after 30000 milliseconds"), outcome_kind::transient,
       "no answer: Operation timed out"},
      {true, answer(401, R"({"message":"401 Unauthorized"})"), outcome_kind::refused, "HTTP 401"},
      {true, answer(400, R"({"error":"system_id is missing"})"), outcome_kind::refused,
       "system_id is missing"},
      {true, answer(302, "", {{"location", "https://login"}}), outcome_kind::refused, "HTTP 302"},
      {true, answer(418, "token " + manager_token), outcome_kind::refused, "token [redacted]"},
  };
  for (const auto& [manager, response, kind, text_has] : rows) {
    const auto runner = manager ? manager_runner() : legacy;
    const auto outcome = classify_gitlab_answer(runner, response);
    INFO(describe_answer(response, ""));
    CHECK(outcome.kind == kind);
    CHECK_THAT(outcome.text, Catch::Contains(text_has));
    CHECK(outcome.text.find(runner.token) == std::string::npos);
  }
  const auto limited = classify_gitlab_answer(
      manager_runner(),
      answer(429, "", {{"retry-after", "30"}, {"ratelimit-reset", "1700000060"}}));
  CHECK(limited.retry_after == std::chrono::seconds{30});
  CHECK(limited.reset_at ==
        std::chrono::system_clock::time_point{std::chrono::seconds{1700000060}});
  const auto odd = classify_gitlab_answer(
      manager_runner(), answer(429, "", {{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}));
  CHECK_FALSE(odd.retry_after);  // an HTTP-date: the schedule's own minimum applies
  CHECK_FALSE(classify_gitlab_answer(manager_runner(), answer(429, "", {{"retry-after", "-1"}}))
                  .retry_after);
  // Values past what the nanosecond clocks hold are ignored, not converted (9999999999 as a
  // reset epoch is the year 2286; as nanoseconds it overflowed).
  const auto absurd = classify_gitlab_answer(
      manager_runner(),
      answer(429, "", {{"retry-after", "9999999999"}, {"ratelimit-reset", "9999999999"}}));
  CHECK_FALSE(absurd.retry_after);
  CHECK_FALSE(absurd.reset_at);
  const auto longest = classify_gitlab_answer(
      manager_runner(), answer(429, "", {{"retry-after", "315360000"}}));  // duration_max
  CHECK(longest.retry_after == std::chrono::seconds{315360000});
}

TEST_CASE("github: each scope's runner list and delete, with the token in a header",
          "[unregister]") {
  auto runner = repo_runner();
  const auto lookup = github_lookup_request(runner, 2, "runwarden/1.0");
  CHECK(lookup.method == "GET");
  CHECK(lookup.url ==
        "https://ghe.example.com/api/v3/repos/acme/widgets/actions/runners"
        "?name=ci%20box%2F1&per_page=100&page=2");
  CHECK(lookup.max_response_bytes == github_list_bytes_max);
  const http_header_list headers{{"accept", "application/vnd.github+json"},
                                 {"authorization", "Bearer " + github_token},
                                 {"x-github-api-version", "2022-11-28"},
                                 {"user-agent", "runwarden/1.0"}};
  CHECK(lookup.headers == headers);
  const auto removal = github_delete_request(runner, 42, "runwarden/1.0");
  CHECK(removal.method == "DELETE");
  CHECK(removal.url == "https://ghe.example.com/api/v3/repos/acme/widgets/actions/runners/42");
  runner.scope = github_scope::org;
  runner.org = "acme";
  CHECK(github_delete_request(runner, 7, "x").url ==
        "https://ghe.example.com/api/v3/orgs/acme/actions/runners/7");
  runner.scope = github_scope::enterprise;
  runner.enterprise = "big-co";
  CHECK(github_lookup_request(runner, 1, "x")
            .url.starts_with("https://ghe.example.com/api/v3/enterprises/big-co/actions/runners?"));
}

TEST_CASE("github runner lists: found, next page, absent, or not GitHub's JSON", "[unregister]") {
  const auto runner = repo_runner();
  const std::string other = R"({"id": 5, "name": "other", "busy": false})";
  const std::string mine = R"({"id": 77, "name": "ci box/1", "busy": true, "labels": []})";
  struct row {
    http_response answer;
    std::uint32_t page;
    github_lookup_kind kind;
    std::int64_t id;
    outcome_kind failure;  // only for failed
    std::string text_has;
  };
  const row rows[] = {
      {answer(200, R"({"total_count": 2, "runners": [)" + other + "," + mine + "]}"), 1,
       github_lookup_kind::found, 77, outcome_kind::unregistered, ""},
      {answer(200, R"({"total_count": 101, "runners": [)" + other + "]}"), 1,
       github_lookup_kind::next_page, 0, outcome_kind::unregistered, ""},
      {answer(200, R"({"total_count": 101, "runners": [)" + other + "]}"), 2,
       github_lookup_kind::failed, 0, outcome_kind::already_gone, "lists no runner"},
      {answer(200, R"({"total_count": 0, "runners": []})"), 1, github_lookup_kind::failed, 0,
       outcome_kind::already_gone, "already unregistered"},
      {answer(200, R"({"total_count": 2, "runners": [)" + other), 1, github_lookup_kind::failed, 0,
       outcome_kind::refused, "not valid JSON"},
      {answer(200, html_page), 1, github_lookup_kind::failed, 0, outcome_kind::refused,
       "not GitHub's runner list"},
      {answer(200, R"({"total_count": 1})"), 1, github_lookup_kind::failed, 0,
       outcome_kind::refused, "no \"runners\" array"},
      {answer(200, R"({"runners": [{"id": "77", "name": "ci box/1"}]})"), 1,
       github_lookup_kind::failed, 0, outcome_kind::refused, "integer id"},
      {answer(200, "[]"), 1, github_lookup_kind::failed, 0, outcome_kind::refused,
       "no \"runners\" array"},
      {answer(401, R"({"message":"Bad credentials"})"), 1, github_lookup_kind::failed, 0,
       outcome_kind::refused, "Bad credentials"},
      {answer(404, R"({"message":"Not Found"})"), 1, github_lookup_kind::failed, 0,
       outcome_kind::refused, "check the token's permissions"},
      {answer(502, html_page), 1, github_lookup_kind::failed, 0, outcome_kind::transient,
       "Bad Gateway"},
      {no_answer("Connection refused"), 1, github_lookup_kind::failed, 0, outcome_kind::transient,
       "Connection refused"},
  };
  for (const auto& [response, page, kind, id, failure, text_has] : rows) {
    INFO(describe_answer(response, "") << " page " << page);
    const auto lookup = classify_github_lookup(runner, response, page);
    CHECK(lookup.kind == kind);
    CHECK(lookup.runner_id == id);
    if (kind != github_lookup_kind::failed) continue;
    CHECK(lookup.outcome.kind == failure);
    CHECK_THAT(lookup.outcome.text, Catch::Contains(text_has));
  }
  const std::string endless = R"({"total_count": 100000, "runners": [)" + other + "]}";
  CHECK(
      classify_github_lookup(runner, answer(200, endless), github_lookup_pages_max).outcome.kind ==
      outcome_kind::refused);
}

TEST_CASE("github deletes: done, gone, busy, rate limited, retried or an error", "[unregister]") {
  const auto runner = repo_runner();
  struct row {
    http_response answer;
    outcome_kind kind;
    std::string text_has;
  };
  const row rows[] = {
      {answer(204), outcome_kind::unregistered, "GitHub removed it"},
      {answer(404, R"({"message":"Not Found"})"), outcome_kind::already_gone, "no longer knows"},
      {answer(422, R"({"message":"Bad request - Runner \"x\" is still running a job\""})"),
       outcome_kind::busy, "still running a job"},
      {answer(429, "", {{"retry-after", "9"}}), outcome_kind::rate_limited, "rate limit"},
      {answer(403, R"({"message":"API rate limit exceeded"})",
              {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000100"}}),
       outcome_kind::rate_limited, "rate limit"},
      {answer(403, R"({"message":"You have exceeded a secondary rate limit"})"),
       outcome_kind::rate_limited, "secondary rate limit"},
      {answer(403, R"({"message":"Resource not accessible by integration"})",
              {{"x-ratelimit-remaining", "4999"}}),
       outcome_kind::refused, "Resource not accessible"},
      {answer(401, R"({"message":"Bad credentials"})"), outcome_kind::refused, "HTTP 401"},
      {answer(500), outcome_kind::transient, "HTTP 500"},
      {no_answer("Operation timed out"), outcome_kind::transient, "timed out"},
      {answer(400, "Bearer " + github_token), outcome_kind::refused, "Bearer [redacted]"},
  };
  for (const auto& [response, kind, text_has] : rows) {
    INFO(describe_answer(response, ""));
    const auto outcome = classify_github_delete(runner, response);
    CHECK(outcome.kind == kind);
    CHECK_THAT(outcome.text, Catch::Contains(text_has));
    CHECK(outcome.text.find(github_token) == std::string::npos);
  }
  const auto limited = classify_github_delete(
      runner,
      answer(403, "", {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000100"}}));
  CHECK(limited.kind == outcome_kind::rate_limited);
  CHECK(limited.reset_at ==
        std::chrono::system_clock::time_point{std::chrono::seconds{1700000100}});
}
