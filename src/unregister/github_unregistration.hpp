#pragma once
// Unregistering a self-hosted GitHub Actions runner: find its id by name in its scope
// (GET .../actions/runners?name=NAME, page by page), then DELETE .../actions/runners/{id}.
// The scopes are a repository (/repos/OWNER/REPO), an organization (/orgs/ORG) and an
// enterprise (/enterprises/ENTERPRISE), under a configurable API base for GitHub Enterprise
// Server.
//
// The answers: 204 is done; 404 from the DELETE, or no runner of that name in the list,
// means it is already gone (done, said loudly); 422 means the runner "is still running a
// job": busy, waited out and retried, never forced; a 429, or a 403 carrying GitHub's
// rate-limit signs (Retry-After, x-ratelimit-remaining: 0, a "rate limit" message), is a
// rate limit; 5xx and no answer are retried; anything else, and a list that is not the JSON
// GitHub sends (an HTML page from a proxy, a truncated body), is retried and reported as an
// error.

#include <cstdint>
#include <string_view>

#include "src/unregister/unregister_outcome.hpp"
#include "src/unregister/unregister_target.hpp"
#include "src/util/http_exchange.hpp"

namespace runwarden {

inline constexpr std::uint32_t github_runners_per_page = 100;
// 10,000 runners of one name filter: a server that pages on past it is not GitHub.
inline constexpr std::uint32_t github_lookup_pages_max = 100;
// A page of 100 runners with their labels stays far below this.
inline constexpr std::size_t github_list_bytes_max = 1024 * 1024;

// `page` counts from 1.
http_request github_lookup_request(const github_runner& runner, std::uint32_t page,
                                   std::string_view user_agent);
http_request github_delete_request(const github_runner& runner, std::int64_t runner_id,
                                   std::string_view user_agent);

enum class github_lookup_kind : std::uint8_t { found, next_page, failed };

struct github_lookup {
  github_lookup_kind kind = github_lookup_kind::failed;
  std::int64_t runner_id = 0;  // for found
  // For failed: why; already_gone when the list has no runner of that name.
  unregister_outcome outcome;
};

github_lookup classify_github_lookup(const github_runner& runner, const http_response& answer,
                                     std::uint32_t page);

unregister_outcome classify_github_delete(const github_runner& runner, const http_response& answer);

}  // namespace runwarden
