// See config_retirement_values.hpp.
#include "src/config/config_retirement_values.hpp"

#include <fmt/format.h>

#include <array>

#include "src/config/config_values.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 2> after_exit_words{"restart", "retire"};
constexpr std::array<std::string_view, 3> give_up_words{"exit", "unhealthy", "retire"};
// More jobs than this on one instance is a typo, not a recycling bound.
constexpr std::int64_t recycle_jobs_limit = 1000000;

retirement_policy& policy_of(config_value& value) { return value.config().retirement; }

}  // namespace

bool read_runner_after_exit(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(after_exit_words);
  if (word)
    policy_of(value).after_exit =
        *word == "retire" ? after_exit_action::retire : after_exit_action::restart;
  return word.has_value();
}

bool read_runner_on_give_up(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(give_up_words);
  if (!word) return false;
  policy_of(value).on_give_up = *word == "unhealthy" ? give_up_choice::unhealthy
                                : *word == "retire"  ? give_up_choice::retire
                                                     : give_up_choice::exit;
  return true;
}

bool read_runner_recycle_after_jobs(config_value& value) {
  return store(value.expect_integer(1, recycle_jobs_limit), policy_of(value).recycle.after_jobs);
}

bool read_runner_recycle_after_uptime(config_value& value) {
  return store(value.expect_positive_duration(
                   "a zero uptime would recycle the instance the moment it starts"),
               policy_of(value).recycle.after_uptime);
}

bool read_runner_recycle_disk_path(config_value& value) {
  std::optional<std::string> path =
      value.expect_nonempty_string("leave the key out for no disk threshold");
  if (!path) return false;
  if (path->front() != '/') {
    value.refuse(fmt::format("\"{}\" is not an absolute path", *path));
    return false;
  }
  policy_of(value).recycle.disk_path = std::move(*path);
  return true;
}

bool read_runner_recycle_disk_percent(config_value& value) {
  return store(value.expect_integer(1, 100), policy_of(value).recycle.disk_used_percent_max);
}

bool read_runner_idle_retire_after(config_value& value) {
  return store(value.expect_positive_duration(
                   "a zero bound would retire the runner before it could take a job"),
               policy_of(value).idle_retire_after);
}

bool read_runner_retire_command(config_value& value) {
  std::optional<std::vector<std::string>> command = expect_argv(
      value, "an array of strings (argv, run without a shell)", "leave the key out for no command");
  if (!command) return false;
  if (command->front().front() != '/') {
    value.element(0).refuse(
        "the executable must be an absolute path (no shell and no PATH lookup run it)");
    return false;
  }
  policy_of(value).end.command = std::move(*command);
  return true;
}

bool read_runner_retire_decrement_capacity(config_value& value) {
  return store(value.expect_bool(), policy_of(value).end.decrement_desired_capacity);
}

void check_retirement_keys(config_reader& reader) {
  const retirement_policy& policy = reader.config().retirement;
  if (policy.idle_retire_after && policy.after_exit != after_exit_action::retire &&
      !reader.rejected("runner.after_exit")) {
    reader.report(reader.accepted_line("runner.idle_retire_after").value_or(0),
                  "runner.idle_retire_after",
                  "needs runner.after_exit = \"retire\": only a one-job runner retires for "
                  "taking no job");
  }
  // Only an Auto Scaling group replaces an instance marked unhealthy; "auto" is resolved at
  // start, and a machine found outside AWS then only exits (the instance end says so).
  const auto provider = reader.config().cloud.provider;
  if (policy.on_give_up == give_up_choice::unhealthy && provider != cloud_provider::aws &&
      provider != cloud_provider::detect && !reader.rejected("cloud.provider")) {
    reader.report(reader.accepted_line("runner.on_give_up").value_or(0), "runner.on_give_up",
                  "\"unhealthy\" needs cloud.provider = \"aws\": only an Auto Scaling group "
                  "replaces an instance marked unhealthy");
  }
  const auto& recycle = policy.recycle;
  if (recycle.disk_path.empty() && recycle.disk_used_percent_max &&
      !reader.rejected("runner.recycle_disk_path")) {
    reader.report(reader.accepted_line("runner.recycle_disk_percent").value_or(0),
                  "runner.recycle_disk_percent",
                  "needs runner.recycle_disk_path: the disk whose use is measured");
  } else if (!recycle.disk_path.empty() && !recycle.disk_used_percent_max &&
             !reader.rejected("runner.recycle_disk_percent")) {
    reader.report(reader.accepted_line("runner.recycle_disk_path").value_or(0),
                  "runner.recycle_disk_path",
                  "needs runner.recycle_disk_percent: the use past which the instance recycles");
  }
}

}  // namespace runwarden
