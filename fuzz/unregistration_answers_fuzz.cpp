// libFuzzer target for what GitLab and GitHub answer to an unregistration: the status, the
// headers that pace retries (Retry-After, the rate-limit reset) and the body (GitHub's runner
// list is JSON; any body is quoted in reports), then the retry schedule's decision on it.
// The bytes are split by FuzzedDataProvider into a token, a status, headers and a body.
// Promises: the token never appears in an outcome's text or the decision's report, even
// when the server echoes it; a runner is "found" only in a 200 answer; a retry waits no
// longer than the schedule's cap or a server's capped wish (a header past the nanosecond
// clocks' range once overflowed converting to them).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <string>

#include "fuzz/fuzz_promise.hpp"
#include "src/unregister/github_unregistration.hpp"
#include "src/unregister/gitlab_unregistration.hpp"
#include "src/unregister/retry_schedule.hpp"

namespace {

using namespace runwarden;

// Tokens as GitLab and GitHub issue them: a prefix and URL-safe characters. (A token made
// of anything could be a substring of the "[redacted]" that replaces it.)
std::string token(FuzzedDataProvider& input, std::string prefix) {
  static constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  const auto length = input.ConsumeIntegralInRange<std::size_t>(8, 40);
  for (std::size_t i = 0; i < length; ++i)
    prefix += alphabet[input.ConsumeIntegralInRange<std::size_t>(0, alphabet.size() - 1)];
  return prefix;
}

http_response answer(FuzzedDataProvider& input) {
  static constexpr const char* names[] = {"retry-after", "x-ratelimit-reset", "ratelimit-reset",
                                          "x-ratelimit-remaining", "content-type"};
  http_response response;
  if (input.ConsumeBool())
    response.status_code = input.ConsumeIntegralInRange<int>(100, 599);
  else
    response.transport_error = input.ConsumeRandomLengthString(200);
  const auto headers = input.ConsumeIntegralInRange<int>(0, 4);
  for (int i = 0; i < headers; ++i)
    response.headers.emplace_back(names[input.ConsumeIntegralInRange<int>(0, 4)],
                                  input.ConsumeRandomLengthString(24));
  response.body = input.ConsumeRemainingBytesAsString();
  return response;
}

bool mentions(const std::string& text, const std::string& secret) {
  return text.find(secret) != std::string::npos;
}

// The decision on `outcome`: never the token, and a wait within what the schedule allows.
void check_decision(const unregister_outcome& outcome, const std::string& secret,
                    std::uint32_t attempts) {
  const unregister_retry_limits limits;
  std::uint64_t random_state = attempts;
  const auto now = std::chrono::system_clock::time_point{std::chrono::seconds{1'800'000'000}};
  const unregister_decision decision =
      decide_after_outcome(limits, outcome, attempts, now, random_state);
  fuzz::require(!mentions(decision.report, secret));
  fuzz::require((decision.verdict == unregister_verdict::done) == is_done(outcome.kind));
  if (decision.verdict == unregister_verdict::retry)
    fuzz::require(decision.delay.count() >= 0 &&
                  decision.delay <=
                      std::max<std::chrono::nanoseconds>(server_wait_max, limits.retry_max));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input{data, size};
  const auto attempts = input.ConsumeIntegralInRange<std::uint32_t>(1, 1000);
  const auto page = input.ConsumeIntegralInRange<std::uint32_t>(1, github_lookup_pages_max);
  gitlab_runner gitlab{"runner", "https://gitlab.example.com", token(input, "glrt-"),
                       "s_0123456789ab"};
  github_runner github;
  github.owner = "owner";
  github.repo = "repo";
  github.runner_name = "runner-1";
  github.token = token(input, "ghp_");
  // The server may echo the token back, anywhere in its answer.
  http_response response = answer(input);
  if (!response.body.empty() && response.body.front() == '!') {
    response.body += gitlab.token + github.token;
    response.transport_error += gitlab.token + github.token;
  }

  const unregister_outcome from_gitlab = classify_gitlab_answer(gitlab, response);
  fuzz::require(!mentions(from_gitlab.text, gitlab.token));
  check_decision(from_gitlab, gitlab.token, attempts);

  const github_lookup lookup = classify_github_lookup(github, response, page);
  if (lookup.kind == github_lookup_kind::found) fuzz::require(response.status_code == 200);
  if (lookup.kind == github_lookup_kind::next_page) fuzz::require(page < github_lookup_pages_max);
  if (lookup.kind == github_lookup_kind::failed) {
    fuzz::require(!mentions(lookup.outcome.text, github.token));
    check_decision(lookup.outcome, github.token, attempts);
  }
  const unregister_outcome from_delete = classify_github_delete(github, response);
  fuzz::require(!mentions(from_delete.text, github.token));
  check_decision(from_delete, github.token, attempts);
  return 0;
}
