// See config_unregister_values.hpp. Keys of the table a kind does not use are errors rather than
// ignored, so that a half-edited file (kind switched, old keys left) cannot look configured.
#include "src/config/config_unregister_values.hpp"

#include <fmt/format.h>

#include <array>
#include <initializer_list>
#include <limits>
#include <span>
#include <vector>

#include "src/config/config_values.hpp"
#include "src/util/duration_text.hpp"

namespace runwarden {

namespace {

constexpr std::array<std::string_view, 3> kind_words{"none", "gitlab", "github"};
constexpr std::array<std::string_view, 3> scope_words{"repo", "org", "enterprise"};
constexpr std::string_view retry_wait_why =
    "a zero wait would hammer a CI server that is down or rate limiting";

gitlab_unregister_settings& gitlab_of(config_value& value) {
  return value.config().unregister.gitlab;
}

github_unregister_settings& github_of(config_value& value) {
  return value.config().unregister.github;
}

bool read_name(config_value& value, std::string& target) {
  return store(value.expect_nonempty_string("leave the key out instead"), target);
}

struct keyed_text {
  std::string_view key;
  const std::string& value;
};

// Reports `key` as missing, on the line of the first of `needed_by` that the document set
// (the key or kind that needs it).
void require(config_reader& reader, keyed_text needed,
             std::initializer_list<std::string_view> needed_by, std::string_view why) {
  if (!needed.value.empty() || reader.rejected(needed.key)) return;
  std::uint32_t line = 0;
  for (const std::string_view key : needed_by) {
    line = reader.accepted_line(key).value_or(0);
    if (line != 0) break;
  }
  reader.report(line, needed.key, fmt::format("is missing ({})", why));
}

// Reports each of `keys` that was set although `why_unused` says it cannot apply.
void refuse_unused(config_reader& reader, std::span<const std::string_view> keys,
                   std::string_view why_unused) {
  for (const std::string_view key : keys)
    if (const std::optional<std::uint32_t> line = reader.accepted_line(key))
      reader.report(*line, key, why_unused);
}

constexpr std::array<std::string_view, 4> gitlab_keys{
    "unregister.gitlab.name", "unregister.gitlab.url", "unregister.gitlab.token_file",
    "unregister.gitlab.system_id_file"};
constexpr std::array<std::string_view, 8> github_keys{
    "unregister.github.api_url",     "unregister.github.scope",     "unregister.github.owner",
    "unregister.github.repo",        "unregister.github.org",       "unregister.github.enterprise",
    "unregister.github.runner_name", "unregister.github.token_file"};

void check_gitlab(config_reader& reader) {
  const gitlab_unregister_settings& gitlab = reader.config().unregister.gitlab;
  // Neither url nor token_file: the runners come from gitlab-runner's config.toml.
  if (gitlab.url.empty() && gitlab.token_file.empty()) {
    const std::array<std::string_view, 2> needs_url{"unregister.gitlab.name",
                                                    "unregister.gitlab.system_id_file"};
    refuse_unused(reader, needs_url,
                  "needs unregister.gitlab.url and token_file (without them the runners come "
                  "from gitlab-runner's config.toml)");
    return;
  }
  const std::string_view why =
      "url and token_file go together; leave both out to use the "
      "runners in gitlab-runner's config.toml";
  require(reader, {"unregister.gitlab.url", gitlab.url}, {"unregister.gitlab.token_file"}, why);
  require(reader, {"unregister.gitlab.token_file", gitlab.token_file}, {"unregister.gitlab.url"},
          why);
}

void check_github(config_reader& reader) {
  const github_unregister_settings& github = reader.config().unregister.github;
  const std::string_view kind = "unregister.kind";
  require(reader, {"unregister.github.runner_name", github.runner_name}, {kind},
          "the runner is found by its name");
  require(reader, {"unregister.github.token_file", github.token_file}, {kind},
          "GitHub needs a token allowed to remove the runner");
  const std::string_view scope_key = "unregister.github.scope";
  if (reader.rejected(scope_key)) return;  // which keys it needs is unknown
  const auto scope = {scope_key, kind};
  const std::string why = fmt::format("scope \"{}\" names it", to_string(github.scope));
  std::vector<std::string_view> unused;
  switch (github.scope) {
    case github_scope::repo:
      require(reader, {"unregister.github.owner", github.owner}, scope, why);
      require(reader, {"unregister.github.repo", github.repo}, scope, why);
      unused = {"unregister.github.org", "unregister.github.enterprise"};
      break;
    case github_scope::org:
      require(reader, {"unregister.github.org", github.org}, scope, why);
      unused = {"unregister.github.owner", "unregister.github.repo",
                "unregister.github.enterprise"};
      break;
    case github_scope::enterprise:
      require(reader, {"unregister.github.enterprise", github.enterprise}, scope, why);
      unused = {"unregister.github.owner", "unregister.github.repo", "unregister.github.org"};
      break;
  }
  refuse_unused(reader, unused,
                fmt::format("is not used with scope = \"{}\"", to_string(github.scope)));
}

}  // namespace

bool read_unregister_kind(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(kind_words);
  if (!word) return false;
  value.config().unregister.kind = *word == "gitlab"   ? unregister_kind::gitlab
                                   : *word == "github" ? unregister_kind::github
                                                       : unregister_kind::none;
  return true;
}

bool read_unregister_timeout(config_value& value) {
  return store(value.expect_positive_duration("each request needs time to connect"),
               value.config().unregister.timeout);
}

bool read_unregister_retry_initial(config_value& value) {
  return store(value.expect_positive_duration(retry_wait_why),
               value.config().unregister.retry_initial);
}

bool read_unregister_retry_max(config_value& value) {
  return store(value.expect_positive_duration(retry_wait_why), value.config().unregister.retry_max);
}

bool read_unregister_attempts_max(config_value& value) {
  return store(value.expect_integer(0, std::numeric_limits<std::uint32_t>::max()),
               value.config().unregister.attempts_max);
}

bool read_gitlab_unregister_name(config_value& value) {
  return read_name(value, gitlab_of(value).name);
}

bool read_gitlab_unregister_url(config_value& value) {
  return store(expect_http_url(value, "leave the key out to use gitlab-runner's config.toml"),
               gitlab_of(value).url);
}

bool read_gitlab_unregister_token_file(config_value& value) {
  return read_name(value, gitlab_of(value).token_file);
}

bool read_gitlab_unregister_system_id_file(config_value& value) {
  return read_name(value, gitlab_of(value).system_id_file);
}

bool read_github_unregister_api_url(config_value& value) {
  return store(expect_http_url(value, "leave the key out for https://api.github.com"),
               github_of(value).api_url);
}

bool read_github_unregister_scope(config_value& value) {
  const std::optional<std::string_view> word = value.expect_word(scope_words);
  if (!word) return false;
  github_of(value).scope = *word == "org"          ? github_scope::org
                           : *word == "enterprise" ? github_scope::enterprise
                                                   : github_scope::repo;
  return true;
}

bool read_github_unregister_owner(config_value& value) {
  return read_name(value, github_of(value).owner);
}

bool read_github_unregister_repo(config_value& value) {
  const std::optional<std::string> repo = value.expect_nonempty_string("leave the key out");
  if (!repo) return false;
  if (repo->find('/') != std::string::npos) {
    value.refuse("is the repository's name alone; its owner goes in unregister.github.owner");
    return false;
  }
  github_of(value).repo = *repo;
  return true;
}

bool read_github_unregister_org(config_value& value) {
  return read_name(value, github_of(value).org);
}

bool read_github_unregister_enterprise(config_value& value) {
  return read_name(value, github_of(value).enterprise);
}

bool read_github_unregister_runner_name(config_value& value) {
  return read_name(value, github_of(value).runner_name);
}

bool read_github_unregister_token_file(config_value& value) {
  return read_name(value, github_of(value).token_file);
}

void check_unregister_keys(config_reader& reader) {
  const unregister_kind kind = reader.config().unregister.kind;
  if (kind != unregister_kind::gitlab)
    refuse_unused(reader, gitlab_keys, "is set, but unregister.kind is not \"gitlab\"");
  if (kind != unregister_kind::github)
    refuse_unused(reader, github_keys, "is set, but unregister.kind is not \"github\"");
  if (kind == unregister_kind::gitlab) check_gitlab(reader);
  if (kind == unregister_kind::github) check_github(reader);
}

}  // namespace runwarden
