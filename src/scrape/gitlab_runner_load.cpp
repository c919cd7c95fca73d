// See gitlab_runner_load.hpp.
#include "src/scrape/gitlab_runner_load.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

#include "src/scrape/runner_capacity.hpp"

namespace runwarden {
namespace {

// 2^53: above it a double no longer holds every whole number, so no count can be trusted.
constexpr double count_max = 9007199254740992.0;

std::optional<std::uint64_t> as_count(const scraped_sample& sample,
                                      std::vector<std::string>& problems) {
  const double value = sample.value;
  if (std::isfinite(value) && value >= 0 && value <= count_max && std::floor(value) == value)
    return static_cast<std::uint64_t>(value);
  std::string problem = sample.name + " has " + std::to_string(value) + ", which is no count";
  problems.push_back(std::move(problem));
  return std::nullopt;
}

std::optional<std::uint64_t> running_jobs(const scraped_page& page,
                                          std::vector<std::string>& problems) {
  const scraped_family* jobs = find_family(page, "gitlab_runner_jobs");
  if (jobs == nullptr) return std::nullopt;
  std::uint64_t total = 0;
  bool known = true;
  for (const scraped_sample& sample : jobs->samples) {
    const std::optional<std::uint64_t> count = as_count(sample, problems);
    known = known && count.has_value();
    total += count.value_or(0);
  }
  return known ? std::optional{total} : std::nullopt;
}

std::optional<std::uint64_t> concurrent(const scraped_page& page,
                                        std::vector<std::string>& problems) {
  const scraped_family* family = find_family(page, "gitlab_runner_concurrent");
  if (family == nullptr || family->samples.size() != 1) return std::nullopt;
  return as_count(family->samples.front(), problems);
}

std::vector<gitlab_runner_limit> limits(const scraped_page& page,
                                        std::vector<std::string>& problems) {
  std::vector<gitlab_runner_limit> result;
  const scraped_family* family = find_family(page, "gitlab_runner_limit");
  if (family == nullptr) return result;
  for (const scraped_sample& sample : family->samples) {
    const std::optional<std::uint64_t> count = as_count(sample, problems);
    if (!count) continue;
    result.push_back({std::string{label_value(sample, "runner").value_or("")},
                      std::string{label_value(sample, "runner_name").value_or("")},
                      std::string{label_value(sample, "system_id").value_or("")}, *count});
  }
  return result;
}

// Limits count only when every series could be read: a sum over some of them would
// understate the capacity.
std::optional<std::uint64_t> capacity(const gitlab_runner_load& load, bool limits_complete) {
  std::vector<std::uint64_t> jobs_max;
  if (limits_complete)
    for (const gitlab_runner_limit& limit : load.limits) jobs_max.push_back(limit.jobs_max);
  return runner_capacity(load.concurrent, jobs_max);
}

gitlab_runner_state state_named(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, gitlab_runner_state>, 4> names{{
      {"starting", gitlab_runner_state::starting},
      {"running", gitlab_runner_state::running},
      {"graceful-shutdown", gitlab_runner_state::graceful_shutdown},
      {"forceful-shutdown", gitlab_runner_state::forceful_shutdown},
  }};
  for (const auto& [name, state] : names)
    if (name == text) return state;
  return gitlab_runner_state::other;
}

void read_process_state(const scraped_page& page, gitlab_runner_load& load) {
  const scraped_family* family = find_family(page, "gitlab_runner_process_state_info");
  if (family == nullptr) return;
  for (const scraped_sample& sample : family->samples) {
    const std::optional<std::string_view> state = label_value(sample, "state");
    if (sample.value != 1 || !state) continue;
    load.process_state = state_named(*state);
    load.process_state_text = std::string{*state};
    return;
  }
}

}  // namespace

gitlab_runner_load derive_gitlab_runner_load(const scraped_page& page) {
  gitlab_runner_load load;
  load.running_jobs = running_jobs(page, load.problems);
  load.concurrent = concurrent(page, load.problems);
  const std::size_t problems_before_limits = load.problems.size();
  load.limits = limits(page, load.problems);
  load.capacity = capacity(load, load.problems.size() == problems_before_limits);
  read_process_state(page, load);
  return load;
}

}  // namespace runwarden
