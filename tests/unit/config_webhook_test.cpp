// The [webhook] keys for templates, headers and the proxy, and unregister.alert_after, read
// through the config's text form as the other config tests do: good values give the
// settings, bad ones exactly the error lines, naming file, line and key. A template file is
// the shipped Slack example, or a scratch file that is not JSON.

#include <unistd.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "src/config/config_file.hpp"

namespace {

using namespace std::chrono_literals;
using runwarden::config_result;
using runwarden::notification_kind;

config_result parse(const std::string& text) {
  return runwarden::parse_config_text(text, "test.toml");
}

const std::string slack_path = RUNWARDEN_TEST_DATA_DIR "/../../config/webhooks/slack.mustache";

}  // namespace

TEST_CASE("webhook templates load from a file and inline, checked", "[config]") {
  const auto result = parse("[webhook]\ntemplate_file = \"" + slack_path +
                            "\"\n[webhook.templates]\ngone = '{\"text\": \"{{headline}}\"}'\n");
  INFO((result.errors.empty() ? std::string{} : result.errors.front()));
  REQUIRE(result.config);
  CHECK(result.config->webhook.template_file == slack_path);
  CHECK(result.config->webhook.template_file_text.find("\"blocks\"") != std::string::npos);
  CHECK(result.config->webhook.templates.at(notification_kind::gone) ==
        R"({"text": "{{headline}}"})");
  CHECK(result.config->webhook.templates.size() == 1);
  CHECK(result.config->webhook.proxy_from_environment);
  CHECK(result.config->unregister.alert_after == std::chrono::milliseconds{10min});
}

TEST_CASE("a template that does not parse or give JSON is an error naming its key", "[config]") {
  const auto unclosed = parse("[webhook.templates]\nhook_expiring = '{\"t\": \"{{#x}}\"}'\n");
  REQUIRE(unclosed.errors.size() == 1);
  CHECK(unclosed.errors[0].find("test.toml:2: webhook.templates.hook_expiring: is not a valid "
                                "Mustache template: ") == 0);
  const auto not_json = parse("[webhook.templates]\ndrain_started = '{\"t\": {{reason}}}'\n");
  REQUIRE(not_json.errors.size() == 1);
  CHECK(not_json.errors[0].find("test.toml:2: webhook.templates.drain_started: does not render "
                                "to JSON for drain_started") == 0);
  const auto unknown = parse("[webhook.templates]\ngonne = '{}'\n");
  CHECK(unknown.errors ==
        std::vector<std::string>{"test.toml:2: webhook.templates.gonne: unknown key (did you mean "
                                 "webhook.templates.gone?)"});

  const auto scratch = std::filesystem::temp_directory_path() /
                       ("runwarden-template-" + std::to_string(::getpid()) + ".mustache");
  std::ofstream{scratch} << "text: {{headline}}\n";
  const auto file_not_json = parse("[webhook]\ntemplate_file = \"" + scratch.string() + "\"\n");
  std::filesystem::remove(scratch);
  REQUIRE(file_not_json.errors.size() == 1);
  CHECK(file_not_json.errors[0].find("test.toml:2: webhook.template_file: " + scratch.string() +
                                     " does not render to JSON for drain_started") == 0);
  const auto missing = parse("[webhook]\ntemplate_file = \"/nonexistent/slack.mustache\"\n");
  CHECK(missing.errors ==
        std::vector<std::string>{"test.toml:2: webhook.template_file: cannot read "
                                 "/nonexistent/slack.mustache: No such file or directory"});
}

TEST_CASE("webhook headers are a table of names and strings, errors never quote a value",
          "[config]") {
  const auto good = parse(
      "[webhook]\nheaders = { \"X-Team\" = \"ci\", Authorization = "
      "\"Bearer s3cret\" }\nproxy_from_environment = false\n");
  REQUIRE(good.config);
  CHECK(good.config->webhook.headers == std::vector<std::pair<std::string, std::string>>{
                                            {"Authorization", "Bearer s3cret"}, {"X-Team", "ci"}});
  CHECK_FALSE(good.config->webhook.proxy_from_environment);

  CHECK(parse("[webhook]\nheaders = { Host = \"evil\" }\n").errors ==
        std::vector<std::string>{
            "test.toml:2: webhook.headers: \"Host\" is written by runwarden itself"});
  CHECK(parse("[webhook]\nheaders = { \"Bad Name\" = \"x\" }\n").errors ==
        std::vector<std::string>{
            "test.toml:2: webhook.headers: \"Bad Name\" is not a valid header name"});
  const auto line_break = parse("[webhook]\nheaders = { Authorization = \"s3cret\\nX: y\" }\n");
  CHECK(line_break.errors ==
        std::vector<std::string>{"test.toml:2: webhook.headers: the value of \"Authorization\" "
                                 "must be a string without line breaks"});
  CHECK(parse("[webhook]\nheaders = { Priority = 3 }\n").errors.size() == 1);
  CHECK(parse("[webhook]\nheaders = \"X-Team: ci\"\n").errors.size() == 1);
}

TEST_CASE("unregister.alert_after takes a positive duration or none", "[config]") {
  const auto five = parse("[unregister]\nalert_after = \"5m\"\n");
  REQUIRE(five.config);
  CHECK(five.config->unregister.alert_after == std::chrono::milliseconds{5min});
  const auto none = parse("[unregister]\nalert_after = \"none\"\n");
  REQUIRE(none.config);
  CHECK_FALSE(none.config->unregister.alert_after);
  CHECK(parse("[unregister]\nalert_after = \"0s\"\n").errors ==
        std::vector<std::string>{
            "test.toml:2: unregister.alert_after: must be greater than zero, or \"none\""});
}
