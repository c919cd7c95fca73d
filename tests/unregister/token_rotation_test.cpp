// The pure parts of following a GitLab token rotation: finding the runner's
// [[runners]] entry again in a config.toml that gitlab-runner rewrote with a new token
// (src/runner/gitlab_runner_entry_key.hpp), what a reading of the file says
// (src/unregister/gitlab_token_source.hpp), and what a 403 means once the file is read
// again (src/unregister/token_rotation.hpp). No text may carry a token.
#include <catch2/catch.hpp>

#include "src/unregister/token_rotation.hpp"

namespace {

using namespace runwarden;

const std::string old_token = "glrt-OldSecret111";
const std::string new_token = "glrt-NewSecret222";

gitlab_runner_config parsed(const std::string& text) {
  auto result = parse_gitlab_runner_config(text, "config.toml");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  return *result.config;
}

std::string entry(const std::string& name, const std::string& token, int id = 0) {
  return "[[runners]]\nname = \"" + name + "\"\nurl = \"https://gitlab.example.com\"\n" +
         (id ? "id = " + std::to_string(id) + "\n" : "") + "token = \"" + token + "\"\n";
}

token_reading found(const std::string& token) {
  return {token_reading_kind::found, secret_text{token}, {}};
}

void check_no_token(const std::string& text) {
  CHECK_THAT(text, !Catch::Contains(old_token) && !Catch::Contains(new_token));
}

}  // namespace

TEST_CASE("an entry with an id is found again by url and id, wherever it moved",
          "[unregister][token_rotation]") {
  const auto before = parsed(entry("a", old_token, 7) + entry("b", "glrt-b", 8));
  const auto key = key_of(before, 1);
  const auto after = parsed(entry("b", new_token, 8) + entry("a", old_token, 7));
  const auto* found_entry = find_entry(after, key);
  REQUIRE(found_entry != nullptr);
  CHECK(found_entry->token.reveal() == new_token);
  CHECK(find_entry(parsed(entry("a", old_token, 7)), key) == nullptr);
}

TEST_CASE("an entry without an id is found by its position, url and name",
          "[unregister][token_rotation]") {
  const auto before = parsed(entry("box", old_token) + entry("box", "glrt-other"));
  const auto key = key_of(before, 0);
  const auto after = parsed(entry("box", new_token) + entry("box", "glrt-other"));
  const auto* same = find_entry(after, key);
  REQUIRE(same != nullptr);
  CHECK(same->token.reveal() == new_token);
  CHECK(find_entry(parsed(entry("renamed", new_token)), key) == nullptr);
  CHECK(find_entry(parsed(""), key) == nullptr);
}

TEST_CASE("a reading says found, missing or unreadable, the last without the file's content",
          "[unregister][token_rotation]") {
  const auto key = key_of(parsed(entry("a", old_token, 7)), 0);
  const auto read = [&](const std::string& text) {
    return reading_of(parse_gitlab_runner_config(text, "config.toml"), key);
  };
  const auto now = read(entry("a", new_token, 7));
  CHECK(now.kind == token_reading_kind::found);
  CHECK(now.token.reveal() == new_token);
  CHECK(read(entry("b", new_token, 9)).kind == token_reading_kind::entry_missing);
  const auto broken = read("[[runners]\ntoken = \"" + new_token + "\"\n");
  CHECK(broken.kind == token_reading_kind::unreadable);
  CHECK_THAT(broken.problem, Catch::StartsWith("config.toml:1:"));
  check_no_token(broken.problem);
}

TEST_CASE("before an attempt the token config.toml holds now is used",
          "[unregister][token_rotation]") {
  const auto same = choose_attempt_token(old_token, found(old_token));
  CHECK_FALSE(same.replacement);
  CHECK(same.note.empty());

  const auto rotated = choose_attempt_token(old_token, found(new_token));
  REQUIRE(rotated.replacement);
  CHECK(*rotated.replacement == new_token);
  CHECK_FALSE(rotated.warning);
  CHECK_THAT(rotated.note, Catch::Contains("rotated"));
  check_no_token(rotated.note);

  for (const token_reading& unhelpful :
       {found("  "), token_reading{token_reading_kind::entry_missing, {}, {}},
        token_reading{token_reading_kind::unreadable, {}, "config.toml: cannot be opened"}}) {
    const auto kept = choose_attempt_token(old_token, unhelpful);
    CHECK_FALSE(kept.replacement);
    CHECK(kept.warning);
    CHECK_THAT(kept.note, Catch::Contains("the token read before is used"));
  }
}

TEST_CASE(
    "a 403 is a rotation when config.toml holds another token, a removal when it holds "
    "the refused one",
    "[unregister][token_rotation]") {
  const auto rotated = judge_rejected_token(old_token, found(new_token));
  CHECK(rotated.verdict == rejected_token_verdict::rotated);
  REQUIRE(rotated.replacement);
  CHECK(*rotated.replacement == new_token);
  CHECK_THAT(rotated.text, Catch::Contains("token rotation"));

  const auto removed = judge_rejected_token(old_token, found(old_token));
  CHECK(removed.verdict == rejected_token_verdict::removed);
  CHECK_FALSE(removed.replacement);
  CHECK_THAT(removed.text, Catch::Contains("still holds: the runner was removed"));

  const auto dropped =
      judge_rejected_token(old_token, token_reading{token_reading_kind::entry_missing, {}, {}});
  CHECK(dropped.verdict == rejected_token_verdict::removed);
  CHECK_THAT(dropped.text, Catch::Contains("no longer lists it"));

  CHECK(judge_rejected_token(old_token, found("")).verdict == rejected_token_verdict::removed);

  const auto unknown = judge_rejected_token(
      old_token,
      token_reading{token_reading_kind::unreadable, {}, "config.toml: cannot be opened"});
  CHECK(unknown.verdict == rejected_token_verdict::unknown);
  CHECK_THAT(unknown.text, Catch::Contains("cannot be opened"));

  for (const auto& judged : {rotated, removed, dropped, unknown}) check_no_token(judged.text);
}
