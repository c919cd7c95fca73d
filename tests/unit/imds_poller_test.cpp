// The poller's request sequence, driven by hand: each test starts polls, answers every
// request the poller sends as a scripted metadata service would, and checks what it sent
// next (method, path, token header), when it waited, and what it reported. Time is an
// argument, so token expiry and refresh are checked to the second.
#include <catch2/catch.hpp>

#include <deque>

#include "src/aws/imds/imds_poller.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

const std::string endpoint = "http://imds.test";
const std::string token_url = endpoint + "/latest/api/token";
const std::string state_url = endpoint + "/latest/meta-data/autoscaling/target-lifecycle-state";
const std::string spot_url = endpoint + "/latest/meta-data/spot/instance-action";
const std::string rebalance_url = endpoint + "/latest/meta-data/events/recommendations/rebalance";
const std::string identity_url = endpoint + "/latest/dynamic/instance-identity/document";
const std::string identity_body =
    R"({"instanceId": "i-1", "region": "eu-west-1", "accountId": "123456789012"})";

imds_answer ok(std::string body, std::vector<std::pair<std::string, std::string>> headers = {}) {
  return {200, std::move(body), {}, std::move(headers)};
}
imds_answer status(int code) { return {code, {}, {}, {}}; }

imds_poller_config config() {
  imds_poller_config made;
  made.endpoint = endpoint;
  made.token_ttl = 100s;
  made.random_seed = 7;
  return made;
}

// Drives one poller and keeps what it asked for.
struct driver {
  imds_poller poller{config()};
  instant now{0};
  std::vector<imds_request> requests;
  std::vector<std::chrono::nanoseconds> waits;
  std::vector<lifecycle_trigger> triggers;
  std::vector<instance_identity> identities;
  std::vector<std::string> reports;

  explicit driver(imds_poller_config made = config()) : poller(std::move(made)) {}

  void take(std::vector<poller_effect> effects) {
    for (auto& effect : effects) {
      if (auto* request = std::get_if<imds_request>(&effect)) {
        requests.push_back(*request);
      } else if (auto* wait = std::get_if<retry_after>(&effect)) {
        waits.push_back(wait->delay);
      } else if (auto* trigger = std::get_if<lifecycle_trigger>(&effect)) {
        triggers.push_back(*trigger);
      } else if (auto* identity = std::get_if<instance_identity>(&effect)) {
        identities.push_back(*identity);
      } else {
        reports.push_back(std::get<watch_report>(effect).text);
      }
    }
  }
  void poll() { take(poller.poll_due(now)); }
  void answer(const imds_answer& given) { take(poller.answer_arrived(given, now)); }
  void retry() { take(poller.retry_due(now)); }
  const imds_request& last() const { return requests.back(); }
  std::optional<std::string> token_sent() const {
    for (const auto& [name, value] : last().headers)
      if (name == "X-aws-ec2-metadata-token") return value;
    return std::nullopt;
  }
};

}  // namespace

TEST_CASE("a first poll fetches a token, reads the pages in order, then the identity", "[imds]") {
  driver d;
  d.poll();
  REQUIRE(d.requests.size() == 1);
  CHECK(d.last().method == "PUT");
  CHECK(d.last().url == token_url);
  CHECK(d.last().headers == std::vector<std::pair<std::string, std::string>>{
                                {"X-aws-ec2-metadata-token-ttl-seconds", "100"}});
  CHECK(d.last().timeout == 1s);
  d.answer(ok("tok-1"));
  CHECK(d.last().method == "GET");
  CHECK(d.last().url == state_url);
  CHECK(d.token_sent() == "tok-1");
  d.answer(status(404));
  CHECK(d.last().url == spot_url);
  d.answer(status(404));
  CHECK(d.last().url == rebalance_url);
  d.answer(status(404));
  CHECK(d.last().url == identity_url);
  CHECK(d.token_sent() == "tok-1");
  d.answer(ok(identity_body));
  CHECK(d.identities == std::vector<instance_identity>{{"i-1", "eu-west-1", "123456789012"}});
  CHECK_FALSE(d.poller.busy());
  CHECK(d.requests.size() == 5);
  CHECK(d.reports.empty());
  // The next poll reuses the token and no longer reads the identity.
  d.now = instant{1s};
  d.poll();
  CHECK(d.last().url == state_url);
  CHECK(d.token_sent() == "tok-1");
  d.answer(ok("Terminated"));
  CHECK(d.triggers.size() == 1);
  d.answer(status(404));
  d.answer(status(404));
  CHECK_FALSE(d.poller.busy());
  CHECK(d.requests.size() == 8);
  CHECK(d.identities.size() == 1);
}

TEST_CASE("the spot pages are read on the first poll, then every few polls", "[imds]") {
  auto made = config();
  made.spot_every_polls = 3;
  driver d{made};
  std::vector<std::vector<std::string>> reads;
  for (int poll = 0; poll < 5; ++poll) {
    d.now = instant{std::chrono::seconds{poll}};
    const auto before = d.requests.size();
    d.poll();
    if (poll == 0) d.answer(ok("tok-1"));
    while (d.poller.busy())
      d.answer(d.last().url == identity_url ? ok(identity_body) : status(404));
    std::vector<std::string> urls;
    for (auto i = before; i < d.requests.size(); ++i)
      if (d.requests[i].method == "GET" && d.requests[i].url != identity_url)
        urls.push_back(d.requests[i].url);
    reads.push_back(urls);
  }
  const std::vector<std::string> all{state_url, spot_url, rebalance_url}, state{state_url};
  CHECK(reads == std::vector<std::vector<std::string>>{all, state, state, all, state});
}

TEST_CASE("a tick during a poll is skipped", "[imds]") {
  driver d;
  d.poll();
  d.poll();
  d.poll();
  CHECK(d.requests.size() == 1);
}

TEST_CASE("the token is refreshed at 80% of the TTL the service granted", "[imds]") {
  driver d;
  const auto full_poll = [&d](std::optional<std::string> new_token) {
    d.poll();
    if (new_token) d.answer(ok(*new_token, {{"x-aws-ec2-metadata-token-ttl-seconds", "50"}}));
    while (d.poller.busy())
      d.answer(d.last().url == identity_url ? ok(identity_body) : status(404));
  };
  full_poll("tok-1");  // granted 50 s of the 100 asked: refresh at 40 s
  d.now = instant{39s};
  const auto before = d.requests.size();
  full_poll(std::nullopt);
  CHECK(d.requests[before].url == state_url);
  d.now = instant{40s};
  const auto at_refresh = d.requests.size();
  full_poll("tok-2");
  CHECK(d.requests[at_refresh].method == "PUT");
  CHECK(d.token_sent() == "tok-2");
}

TEST_CASE("a 401 drops the token and fetches a new one, once per read", "[imds]") {
  driver d;
  d.poll();
  d.answer(ok("tok-1"));
  d.answer(status(401));  // the lifecycle page refuses tok-1
  CHECK(d.last().method == "PUT");
  d.answer(ok("tok-2"));
  CHECK(d.last().url == state_url);
  CHECK(d.token_sent() == "tok-2");
  d.answer(status(401));  // refused again: a failure of the page, not a loop
  CHECK(d.reports ==
        std::vector<std::string>{"/latest/meta-data/autoscaling/target-lifecycle-state: unexpected "
                                 "HTTP 401"});
  CHECK(d.last().url == spot_url);
  CHECK(d.token_sent() == "tok-2");
  CHECK(d.triggers.empty());
}

TEST_CASE("token failures retry with jittered backoff, then skip the poll", "[imds]") {
  driver d;
  d.poll();
  d.answer(status(500));
  REQUIRE(d.waits.size() == 1);
  CHECK(d.waits[0] > 80ms);
  CHECK(d.waits[0] <= 100ms);
  d.answer(status(500));  // a stray answer while waiting changes nothing
  CHECK(d.requests.size() == 1);
  d.retry();
  CHECK(d.last().method == "PUT");
  d.answer({std::nullopt, {}, "Operation timed out", {}});
  REQUIRE(d.waits.size() == 2);
  CHECK(d.waits[1] > 160ms);
  CHECK(d.waits[1] <= 200ms);
  d.retry();
  d.answer(status(503));
  CHECK(d.waits.size() == 2);
  CHECK_FALSE(d.poller.busy());
  CHECK(d.requests.size() == 3);
  CHECK(d.reports == std::vector<std::string>{
                         "IMDSv2 token: HTTP 503; gave up after 3 attempts (attempts_max); this "
                         "poll is skipped"});
  // The next poll tries again; the same failure is not reported twice.
  d.poll();
  for (int attempt = 0; attempt < 3; ++attempt) {
    d.answer(status(503));
    d.retry();
  }
  CHECK(d.reports.size() == 1);
  // A different kind of failure is, once, whatever milliseconds its text names.
  for (const char* text : {"timed out after 1000 ms", "timed out after 1003 ms"}) {
    d.poll();
    for (int attempt = 0; attempt < 3; ++attempt) {
      d.answer({std::nullopt, {}, text, {}});
      d.retry();
    }
  }
  CHECK(d.reports.size() == 2);
  CHECK_THAT(d.reports.back(), Catch::StartsWith("IMDSv2 token: timed out after 1000 ms (no "
                                                 "answer; gave up after 3 attempts"));
  d.poll();
  d.answer(ok("tok"));
  CHECK(d.reports.back() == "IMDSv2 token: fetched again");
  CHECK(d.token_sent() == "tok");
}

TEST_CASE("without a token, IMDSv1 fallback reads only when configured", "[imds]") {
  driver strict;
  strict.poll();
  strict.answer(status(403));  // IMDSv2 refused outright: retrying cannot help
  CHECK(strict.waits.empty());
  CHECK_FALSE(strict.poller.busy());
  CHECK(strict.requests.size() == 1);
  CHECK_THAT(strict.reports.at(0), Catch::StartsWith("IMDSv2 token: HTTP 403"));

  auto lenient_config = config();
  lenient_config.allow_v1_fallback = true;
  driver lenient{lenient_config};
  lenient.poll();
  lenient.answer(status(403));
  CHECK(lenient.last().url == state_url);
  CHECK_FALSE(lenient.token_sent());
  CHECK_THAT(lenient.reports.at(0), Catch::EndsWith("reading without a token (IMDSv1 fallback)"));
  lenient.answer(ok("Terminated"));
  CHECK(lenient.triggers.size() == 1);
}

TEST_CASE("a bad token answer is refused and never sent", "[imds]") {
  driver d;
  d.poll();
  d.answer(ok("<html>\n</html>"));
  CHECK(d.requests.size() == 1);
  CHECK(d.reports == std::vector<std::string>{
                         "IMDSv2 token: the token answer holds characters a token cannot; this "
                         "poll is skipped"});
}

TEST_CASE("the identity document is retried, then tried again next poll", "[imds]") {
  auto made = config();
  made.policy.rebalance = rebalance_action::ignore;
  driver d{made};
  d.poll();
  d.answer(ok("tok"));
  d.answer(status(404));
  d.answer(status(404));
  CHECK(d.last().url == identity_url);
  d.answer(status(500));
  d.retry();
  d.answer(status(500));
  d.retry();
  CHECK(d.last().url == identity_url);
  d.answer(status(500));
  CHECK_FALSE(d.poller.busy());
  CHECK(d.reports ==
        std::vector<std::string>{"instance identity document: HTTP 500; gave up after 3 attempts "
                                 "(attempts_max)"});
  d.poll();
  d.answer(status(404));
  d.answer(status(404));
  d.answer(ok("not json"));
  CHECK(d.reports.back() ==
        "instance identity document is not JSON (an error page from a "
        "proxy?)");
  CHECK_FALSE(d.poller.identity_known());
  d.poll();
  d.answer(status(404));
  d.answer(status(404));
  d.answer(ok(identity_body));
  CHECK(d.poller.identity_known());
  CHECK(d.identities.size() == 1);
}
