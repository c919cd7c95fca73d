// The user information of a URL (a password) never reaches a log line, an error or the
// status: one helper redacts it, and the texts built from URLs go through it. Each case
// names a text runwarden logs or shows, built from a URL holding "user:hunter2@".
#include <catch2/catch.hpp>

#include <string>

#include "src/drain/drain_effect_text.hpp"
#include "src/scrape/runner_scrape.hpp"
#include "src/unregister/answer_text.hpp"
#include "src/unregister/unregister_target.hpp"
#include "src/util/url_userinfo.hpp"

using runwarden::redact_url_userinfo;

TEST_CASE("user information is redacted from every URL in a text", "[secrets][url]") {
  CHECK(redact_url_userinfo("https://user:hunter2@gitlab.example.com/api") ==
        "https://***@gitlab.example.com/api");
  CHECK(redact_url_userinfo("https://token@hooks.example.com") == "https://***@hooks.example.com");
  // The last "@" of the authority ends it, as in curl: a password may hold an "@".
  CHECK(redact_url_userinfo("http://u:p@ss@[::1]:8080/x?a=b@c") == "http://***@[::1]:8080/x?a=b@c");
  CHECK(redact_url_userinfo("to http://a:b@one/ and \"https://c:d@two\" at x@y") ==
        "to http://***@one/ and \"https://***@two\" at x@y");
  CHECK(redact_url_userinfo("https://gitlab.example.com/a@b") == "https://gitlab.example.com/a@b");
  CHECK(redact_url_userinfo("no url, mail@example.com") == "no url, mail@example.com");
  CHECK(redact_url_userinfo("") == "");
}

TEST_CASE("the GitLab runner's label (logs, ctl status) hides user information", "[secrets][url]") {
  const runwarden::unregister_target target =
      runwarden::gitlab_runner{"r1", "https://user:hunter2@gitlab.example.com", "glrt-x", "s"};
  const auto label = runwarden::label_of(target);
  CHECK(label == "gitlab runner \"r1\" at https://***@gitlab.example.com");
  CHECK(label.find("hunter2") == std::string::npos);
}

TEST_CASE("callback URLs in effect lines and scrape errors hide user information",
          "[secrets][url]") {
  const runwarden::drain_effect effect = runwarden::send_notification{
      runwarden::notification_kind::gone,
      {runwarden::shutdown_callback{"https://u:hunter2@ci.example.com/cb", "POST", {}}}};
  const auto line = runwarden::to_string(effect);
  CHECK(line.find("hunter2") == std::string::npos);
  CHECK(line.find("https://***@ci.example.com/cb") != std::string::npos);

  runwarden::http_response failed;
  failed.transport_error = "Failed to connect to http://u:hunter2@127.0.0.1:9252/metrics";
  const auto scrape =
      runwarden::judge_runner_scrape(failed, "http://u:hunter2@127.0.0.1:9252/metrics");
  CHECK(scrape.error.find("hunter2") == std::string::npos);
  CHECK(runwarden::describe_answer(failed, "glrt-x").find("hunter2") == std::string::npos);
}
