// Webhook body templates: the shipped Slack and Teams examples are rendered for every event
// with awkward values (quotes, a backslash, line breaks, a tab, "<!channel>", an ampersand)
// and parsed back with nlohmann-json, then checked for the fields each service's documented
// payload requires. Values must come back out of the JSON exactly as they went in, which is
// what proves the JSON escaping; Slack's own &, <, > escaping is checked inside its text.
// Broken templates give a problem naming what is wrong.

#include "src/webhook/body_template.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "src/webhook/header_rules.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;
using json = nlohmann::json;

const std::string awkward_reason = "scale-in \"asg\" \\ now\nsecond line\t<!channel> & co";

std::string shipped_template(const std::string& name) {
  std::ifstream file{RUNWARDEN_TEST_DATA_DIR "/../../config/webhooks/" + name};
  REQUIRE(file);
  return {std::istreambuf_iterator<char>{file}, std::istreambuf_iterator<char>{}};
}

warden_snapshot draining_snapshot() {
  warden_snapshot snapshot;
  snapshot.now = 1000s;
  snapshot.status = warden_status::shutting_down;
  snapshot.phase = drain_phase::draining;
  snapshot.drain_started_at = 990s;
  snapshot.drain_deadline = 1600s;
  snapshot.trigger = trigger_source::cloud_lifecycle;
  snapshot.reason = awkward_reason;
  snapshot.jobs_running = 2;
  snapshot.lifecycle_hook = "drain-hook";
  snapshot.instance_id = "i-0abc";
  snapshot.auto_scaling_group = "ci-runners";
  return snapshot;
}

// 2024-05-01T12:00:00Z matches the snapshot's steady 1000 s.
const std::chrono::system_clock::time_point wall_now{std::chrono::seconds{1714564800}};

notification_values sample(notification_kind kind, const warden_snapshot& snapshot) {
  return values_of(kind, snapshot, wall_now, {"ci-7", "gitlab"}, "0.1.0");
}

json rendered(const std::string& text, notification_kind kind,
              const warden_snapshot& snapshot = draining_snapshot()) {
  const auto body = render_body(text, sample(kind, snapshot));
  INFO(body);
  return json::parse(body);
}

}  // namespace

TEST_CASE("values_of gives every field it knows and leaves the unknown out", "[webhook]") {
  const auto values = sample(notification_kind::drain_started, draining_snapshot());
  CHECK(values.at("event") == "drain_started");
  CHECK(values.at("is_drain_started") == "true");
  CHECK(values.count("is_gone") == 0);
  CHECK(values.at("reason") == awkward_reason);
  CHECK(values.at("trigger") == "cloud_lifecycle");
  CHECK(values.at("instance_id") == "i-0abc");
  CHECK(values.at("auto_scaling_group") == "ci-runners");
  CHECK(values.at("hook_name") == "drain-hook");
  CHECK(values.at("runner_name") == "ci-7");
  CHECK(values.at("runner_kind") == "gitlab");
  CHECK(values.at("jobs_left") == "2");
  CHECK(values.at("deadline") == "2024-05-01T12:10:00.000Z");
  CHECK(values.at("runwarden_version") == "0.1.0");
  CHECK(values.at("headline") == "runner ci-7 on i-0abc: drain started (cloud_lifecycle)");
  CHECK(values.count("exit_code") == 0);

  const auto bare = values_of(notification_kind::gone, warden_snapshot{}, wall_now, {}, "0.1.0");
  for (const auto* name : {"reason", "trigger", "instance_id", "auto_scaling_group", "hook_name",
                           "runner_name", "jobs_left", "deadline", "exit_code"})
    CHECK(bare.count(name) == 0);
}

TEST_CASE("values are escaped for the inside of a JSON string", "[webhook]") {
  CHECK(json_string_content("say \"hi\"\n") == "say \\\"hi\\\"\\n");
  CHECK(json_string_content("a\\b\t\x01") == "a\\\\b\\t\\u0001");
  CHECK(json_string_content("caf\xc3\xa9") == "caf\xc3\xa9");
  // Invalid UTF-8 is replaced, never sent on or thrown over.
  CHECK(json_string_content("bad \xff byte") == "bad \xef\xbf\xbd byte");
  const auto body = render_body(R"({"r": "{{reason}}", "raw": "{{{runner_kind}}}"})",
                                {{"reason", awkward_reason}, {"runner_kind", "gitlab"}});
  CHECK(json::parse(body).at("r") == awkward_reason);
  CHECK(json::parse(body).at("raw") == "gitlab");
}

TEST_CASE("the slack section escapes &, < and > after the JSON escaping", "[webhook]") {
  const auto body = render_body(R"({"t": "{{#slack}}<{{reason}}>{{/slack}}"})",
                                {{"reason", "<!channel> \"a\" & b"}});
  CHECK(json::parse(body).at("t") == "&lt;&lt;!channel&gt; \"a\" &amp; b&gt;");
}

TEST_CASE("the shipped Slack template renders Slack's payload for every event", "[webhook]") {
  const auto text = shipped_template("slack.mustache");
  REQUIRE_FALSE(body_template_problem(text));
  for (const auto kind : all_notification_kinds) {
    CAPTURE(to_string(kind));
    const auto body = rendered(text, kind);
    // Slack requires "text" (the message and its notification) next to "blocks".
    REQUIRE(body.at("text").is_string());
    CHECK_FALSE(body.at("text").get<std::string>().empty());
    const auto& blocks = body.at("blocks");
    REQUIRE(blocks.is_array());
    CHECK(blocks.at(0).at("type") == "header");
    CHECK(blocks.at(0).at("text").at("type") == "plain_text");
    CHECK(blocks.at(0).at("text").at("text") == "runwarden: " + std::string{to_string(kind)});
    const auto& section = blocks.at(1);
    CHECK(section.at("type") == "section");
    CHECK(section.at("text").at("type") == "mrkdwn");
    for (const auto& field : section.at("fields")) CHECK(field.at("type") == "mrkdwn");
    CHECK(section.at("fields").size() <= 10);  // Slack's limit per section
  }
  const auto started = rendered(text, notification_kind::drain_started);
  const auto trigger = started.at("blocks").at(1).at("fields").at(2).at("text").get<std::string>();
  CHECK(trigger ==
        "*Trigger*\ncloud_lifecycle: scale-in \"asg\" \\ now\nsecond line\t"
        "&lt;!channel&gt; &amp; co");
  CHECK(started.dump().find("<!channel>") == std::string::npos);
}

TEST_CASE("the shipped Teams template renders an Adaptive Card message for every event",
          "[webhook]") {
  const auto text = shipped_template("teams.mustache");
  REQUIRE_FALSE(body_template_problem(text));
  for (const auto kind : all_notification_kinds) {
    CAPTURE(to_string(kind));
    const auto body = rendered(text, kind);
    CHECK(body.at("type") == "message");
    REQUIRE(body.at("attachments").size() == 1);
    const auto& attachment = body.at("attachments").at(0);
    CHECK(attachment.at("contentType") == "application/vnd.microsoft.card.adaptive");
    CHECK(attachment.at("contentUrl").is_null());
    const auto& card = attachment.at("content");
    CHECK(card.at("type") == "AdaptiveCard");
    CHECK(card.at("version") == "1.2");
    CHECK(card.at("body").at(0).at("type") == "TextBlock");
    CHECK(card.at("body").at(0).at("text") == "runwarden: " + std::string{to_string(kind)});
  }
  const auto facts = rendered(text, notification_kind::gone)
                         .at("attachments")
                         .at(0)
                         .at("content")
                         .at("body")
                         .at(2)
                         .at("facts");
  CHECK(facts.at(4).at("title") == "Reason");
  CHECK(facts.at(4).at("value") == awkward_reason);
  CHECK(facts.at(2).at("value") == "ci-runners");
  CHECK(facts.at(8).at("value") == "not yet");
}

TEST_CASE("a template that cannot give JSON is a problem, named", "[webhook]") {
  const auto unclosed = body_template_problem(R"({"t": "{{#reason}}"})");
  REQUIRE(unclosed);
  CHECK(unclosed->find("is not a valid Mustache template") != std::string::npos);
  const auto unquoted = body_template_problem(R"({"t": {{reason}}})");
  REQUIRE(unquoted);
  CHECK(unquoted->find("does not render to JSON for drain_started") == 0);
  const auto raw = body_template_problem(R"({"t": "{{{reason}}}"})");
  REQUIRE(raw);  // a raw reason with a quote in it breaks the JSON
  CHECK(raw->find("does not render to JSON") == 0);
  // JSON for some events only is still refused, naming the first event that breaks.
  const auto gone_only = body_template_problem(R"({{#is_gone}}{"t": 1}{{/is_gone}})");
  REQUIRE(gone_only);
  CHECK(gone_only->find("does not render to JSON for drain_started") == 0);
  CHECK_FALSE(body_template_problem(R"({"t": "{{headline}}"})"));
}

TEST_CASE("headers that carry credentials are redacted in logs", "[webhook]") {
  const http_header_list headers{{"X-Team", "ci"},
                                 {"Authorization", "Bearer s3cret"},
                                 {"X-Api-Key", "k3y"},
                                 {"Cookie", "session=1"}};
  const auto text = loggable_headers(headers);
  CHECK(text == "X-Team: ci, Authorization: (redacted), X-Api-Key: (redacted), Cookie: (redacted)");
  CHECK(looks_like_secret_header("proxy-authorization"));
  CHECK(looks_like_secret_header("X-Auth-Token"));
  CHECK_FALSE(looks_like_secret_header("Content-Type"));
}
