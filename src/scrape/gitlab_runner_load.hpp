#pragma once
// What a gitlab-runner's /metrics page says about its load, read with the runner's own
// meaning of its families:
// - running jobs: the sum of gitlab_runner_jobs over all its series (one series per runner,
//   stage and state; an idle runner shows a series with value 0). A page without the family
//   says nothing about jobs, which is "unknown", never zero.
// - capacity: gitlab_runner_concurrent caps all jobs of the process; gitlab_runner_limit caps
//   each [[runners]] entry, 0 meaning no limit. The process can run at most the concurrent
//   setting, and at most the sum of the limits when every entry has one.
// - process state: gitlab_runner_process_state_info (newer runners only) has one series with
//   value 1 whose `state` label is "starting", "running", "graceful-shutdown" or
//   "forceful-shutdown".
// Pure: it reads a parsed page (src/scrape/exposition_parser.hpp) and nothing else.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/scrape/scraped_page.hpp"

namespace runwarden {

enum class gitlab_runner_state : std::uint8_t {
  starting,
  running,
  graceful_shutdown,
  forceful_shutdown,
  other,  // a state this build does not know; the text is in process_state_text
};

struct gitlab_runner_limit {
  std::string runner;       // the short token the runner labels its series with
  std::string runner_name;  // the [[runners]] name
  std::string system_id;
  std::uint64_t jobs_max = 0;  // 0: no limit
};

struct gitlab_runner_load {
  std::optional<std::uint64_t> running_jobs;         // empty: no gitlab_runner_jobs on the page
  std::optional<std::uint64_t> concurrent;           // empty: no gitlab_runner_concurrent
  std::vector<gitlab_runner_limit> limits;           // one per gitlab_runner_limit series
  std::optional<std::uint64_t> capacity;             // empty: neither bound is known
  std::optional<gitlab_runner_state> process_state;  // empty: no state family or series
  std::string process_state_text;                    // the label as the page spelt it
  // Values that are no count (negative, fractional, NaN, infinite) make the figure they
  // belong to unknown; each such series is named here.
  std::vector<std::string> problems;
};

gitlab_runner_load derive_gitlab_runner_load(const scraped_page& page);

}  // namespace runwarden
