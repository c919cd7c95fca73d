// EC2's scheduled maintenance events: the page's parser against the AWS user
// guide's own example ("View scheduled events", instance metadata) and bad documents, then
// the watch's decisions per event code, fed pages and wall-clock times by hand.
#include <catch2/catch.hpp>

#include <algorithm>

#include "src/aws/imds/scheduled_event_watch.hpp"
#include "src/util/gmt_date.hpp"
#include "src/util/rfc3339_time.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

namespace {

// The user guide's example, as the page serves it.
constexpr std::string_view documented_page = R"([
  {
    "NotBefore" : "21 Jan 2019 09:00:43 GMT",
    "Code" : "system-reboot",
    "Description" : "scheduled reboot",
    "EventId" : "instance-event-0d59937288b749b32",
    "NotAfter" : "21 Jan 2019 09:17:23 GMT",
    "State" : "active"
  }
])";

wall_time at(std::string_view rfc3339) { return *parse_rfc3339(rfc3339); }

std::string event_json(std::string_view id, std::string_view code, std::string_view state,
                       std::string_view not_before) {
  return "{\"EventId\": \"" + std::string{id} + "\", \"Code\": \"" + std::string{code} +
         "\", \"State\": \"" + std::string{state} + "\", \"NotBefore\": \"" +
         std::string{not_before} + "\"}";
}

imds_answer page(const std::vector<std::string>& events) {
  std::string body = "[";
  for (const auto& event : events) body += (body.size() > 1 ? "," : "") + event;
  return imds_answer{200, body + "]", {}, {}};
}

bool says(const scheduled_watch_outcome& outcome, std::string_view text) {
  return std::any_of(outcome.reports.begin(), outcome.reports.end(),
                     [&](const watch_report& r) { return r.text.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("the documented scheduled events page parses field by field", "[imds][scheduled]") {
  const auto parsed = parse_scheduled_events(documented_page);
  INFO(parsed.error);
  REQUIRE(parsed.events);
  REQUIRE(parsed.events->size() == 1);
  const auto& event = parsed.events->front();
  CHECK(event.event_id == "instance-event-0d59937288b749b32");
  CHECK(event.code == "system-reboot");
  CHECK(event.state == scheduled_event_state::active);
  CHECK(event.not_before == at("2019-01-21T09:00:43Z"));
  CHECK(event.not_after == at("2019-01-21T09:17:23Z"));
  CHECK(event.description == "scheduled reboot");
  CHECK(parse_scheduled_events("[]").events == std::vector<scheduled_event>{});
}

TEST_CASE("GMT dates: EC2's and RFC 1123's forms, nothing without GMT", "[imds][scheduled]") {
  CHECK(parse_gmt_date("3 Feb 2027 10:00:00 GMT") == at("2027-02-03T10:00:00Z"));
  CHECK(parse_gmt_date("Mon, 19 Sep 2016 18:29:47 GMT") == at("2016-09-19T18:29:47Z"));
  CHECK(format_gmt_date(at("2016-09-19T18:29:47Z")) == "Mon, 19 Sep 2016 18:29:47 GMT");
  CHECK_FALSE(parse_gmt_date("21 Jan 2019 09:00:43"));
  CHECK_FALSE(parse_gmt_date("2019-01-21T09:00:43Z"));
  CHECK_FALSE(parse_gmt_date("soon GMT"));
  // Past 2262 system_clock's nanoseconds overflow: such a date is refused, not converted.
  CHECK_FALSE(parse_gmt_date("21 Jan 9528 09:00:43 GMT"));
  CHECK_FALSE(parse_gmt_date(""));
}

TEST_CASE("bad scheduled events pages are refused whole, naming the event and field",
          "[imds][scheduled]") {
  const std::vector<std::pair<std::string, std::string>> rows{
      {"<html>proxy</html>", "scheduled events is not JSON (an error page from a proxy?)"},
      {"{}", "scheduled events is JSON but not a list"},
      {"[1]", "scheduled events [0] is not an object"},
      {R"([{"Code": "instance-stop", "State": "active", "NotBefore": "3 Feb 2027 10:00:00 GMT"}])",
       "scheduled events [0] has no \"EventId\" string"},
      {"[" + event_json("e-1", "instance-stop", "active", "3 Feb 2027 10:00:00 GMT") + "," +
           event_json("e-2", "instance-stop", "pending", "3 Feb 2027 10:00:00 GMT") + "]",
       "scheduled events [1] \"State\" is neither active, canceled nor completed"},
      {"[" + event_json("e-1", "instance-stop", "active", "2027-02-03T10:00:00Z") + "]",
       "scheduled events [0] \"NotBefore\" is not a date such as \"21 Jan 2019 09:00:43 GMT\""},
      {R"([{"EventId": "e", "Code": "c", "State": "active", "NotBefore": "3 Feb 2027 10:00:00 GMT",
            "NotAfter": 7}])",
       "scheduled events [0] has no \"NotAfter\" string"},
  };
  for (const auto& [body, error] : rows) {
    CAPTURE(body);
    const auto parsed = parse_scheduled_events(body);
    CHECK_FALSE(parsed.events);
    CHECK(parsed.error == error);
  }
  std::string many = "[";
  for (std::size_t index = 0; index <= scheduled_events_max; ++index)
    many += (index ? "," : "") + event_json("e", "c", "active", "3 Feb 2027 10:00:00 GMT");
  CHECK(parse_scheduled_events(many + "]").error ==
        "scheduled events lists 65 events, more than 64");
}

TEST_CASE("an instance-stop drains at once, its deadline NotBefore minus the margin",
          "[imds][scheduled]") {
  scheduled_event_watch watch{{}};
  const auto now = at("2027-02-01T10:00:00Z");
  const auto stop = event_json("e-1", "instance-stop", "active", "3 Feb 2027 10:00:00 GMT");
  const auto first = watch.on_page(page({stop}), now);
  REQUIRE(first.triggers.size() == 1);
  CHECK(first.triggers[0] ==
        lifecycle_trigger{trigger_source::ec2_scheduled_maintenance, at("2027-02-03T09:59:30Z"),
                          "EC2 scheduled event instance-stop (e-1) not before Wed, 03 Feb 2027 "
                          "10:00:00 GMT"});
  CHECK(says(first, "drains now"));
  CHECK_FALSE(first.next_due);
  // The same page on later reads: nothing more.
  const auto again = watch.on_page(page({stop}), now + 60s);
  CHECK(again.triggers.empty());
  CHECK(again.reports.empty());
}

TEST_CASE("a reboot drains the lead time before NotBefore, woken by its due time",
          "[imds][scheduled]") {
  scheduled_event_watch watch{{}};
  const auto reboot = event_json("e-2", "system-reboot", "active", "3 Feb 2027 10:00:00 GMT");
  const auto first = watch.on_page(page({reboot}), at("2027-02-03T09:00:00Z"));
  CHECK(first.triggers.empty());
  CHECK(says(first, "drains from Wed, 03 Feb 2027 09:58:00 GMT"));
  CHECK(first.next_due == at("2027-02-03T09:58:00Z"));
  CHECK(watch.due(at("2027-02-03T09:57:59Z")).triggers.empty());
  const auto due = watch.due(at("2027-02-03T09:58:00Z"));
  REQUIRE(due.triggers.size() == 1);
  CHECK(due.triggers[0].deadline == at("2027-02-03T09:59:30Z"));
  CHECK(watch.due(at("2027-02-03T09:58:01Z")).triggers.empty());
}

TEST_CASE("a canceled event not yet draining is dropped, and a started drain is not undone",
          "[imds][scheduled]") {
  scheduled_event_watch watch{{}};
  const auto now = at("2027-02-03T09:00:00Z");
  const auto reboot = [](std::string_view state) {
    return event_json("e-3", "instance-reboot", state, "3 Feb 2027 10:00:00 GMT");
  };
  const auto stop = [](std::string_view state) {
    return event_json("e-4", "instance-stop", state, "3 Feb 2027 10:00:00 GMT");
  };
  CHECK(watch.on_page(page({reboot("active"), stop("active")}), now).triggers.size() == 1);
  const auto canceled = watch.on_page(page({reboot("canceled"), stop("canceled")}), now + 60s);
  CHECK(canceled.triggers.empty());
  CHECK(says(canceled,
             "(e-3) not before Wed, 03 Feb 2027 10:00:00 GMT is canceled before its "
             "drain started: dropped"));
  CHECK(says(canceled,
             "(e-4) not before Wed, 03 Feb 2027 10:00:00 GMT is canceled, but its "
             "drain has started and is not undone"));
  CHECK_FALSE(canceled.next_due);
  CHECK(watch.due(at("2027-02-03T09:59:00Z")).triggers.empty());
}

TEST_CASE("an event gone from the page before its drain started is dropped", "[imds][scheduled]") {
  scheduled_event_watch watch{{}};
  const auto now = at("2027-02-03T09:00:00Z");
  watch.on_page(page({event_json("e-5", "system-reboot", "active", "3 Feb 2027 10:00:00 GMT")}),
                now);
  const auto gone = watch.on_page(imds_answer{404, "", {}, {}}, now + 60s);
  CHECK(says(gone, "is no longer scheduled: dropped"));
  CHECK_FALSE(gone.next_due);
  // A page that fails says nothing of the events: one that is listed stays waiting.
  scheduled_event_watch kept{{}};
  kept.on_page(page({event_json("e-6", "system-reboot", "active", "3 Feb 2027 10:00:00 GMT")}),
               now);
  const auto failed = kept.on_page(imds_answer{std::nullopt, "", "timed out", {}}, now + 60s);
  CHECK(says(failed, "/latest/meta-data/events/maintenance/scheduled: no answer: timed out"));
  CHECK(failed.next_due == at("2027-02-03T09:58:00Z"));
  CHECK(kept.on_page(imds_answer{std::nullopt, "", "timed out", {}}, now + 120s).reports.empty());
}

TEST_CASE("log, other codes and the policy's own choices", "[imds][scheduled]") {
  scheduled_event_policy policy;
  policy.actions["system-maintenance"] = scheduled_event_action::drain;
  policy.other_codes = scheduled_event_action::drain_ahead;
  policy.margin = 0s;
  policy.lead_time = 10min;
  scheduled_event_watch watch{policy};
  const auto now = at("2027-02-03T09:00:00Z");
  const auto outcome = watch.on_page(
      page({event_json("e-7", "system-maintenance", "active", "3 Feb 2027 10:00:00 GMT"),
            event_json("e-8", "instance-teleport", "active", "3 Feb 2027 11:00:00 GMT")}),
      now);
  REQUIRE(outcome.triggers.size() == 1);
  CHECK(outcome.triggers[0].deadline == at("2027-02-03T10:00:00Z"));
  CHECK(outcome.next_due == at("2027-02-03T10:50:00Z"));
  scheduled_event_watch logging{{}};
  const auto logged = logging.on_page(
      page({event_json("e-9", "system-maintenance", "active", "3 Feb 2027 10:00:00 GMT")}), now);
  CHECK(logged.triggers.empty());
  CHECK(says(logged, "only logged (action \"log\")"));
  CHECK_FALSE(logged.next_due);
}

// Issue 31: AWS performs an event at some moment of its window, up to NotAfter. One whose
// NotBefore has passed (the metadata mock's default system-reboot, a retirement already due)
// is no "stop the jobs now": the deadline is the window's end less the margin, or none.
TEST_CASE("an event whose NotBefore has passed takes its deadline from NotAfter, or has none",
          "[imds][scheduled]") {
  scheduled_event_watch watch{{}};
  const auto now = at("2027-02-03T10:05:00Z");
  const auto windowed =
      R"({"EventId": "e-8", "Code": "system-reboot", "State": "active",
          "NotBefore": "3 Feb 2027 10:00:00 GMT", "NotAfter": "3 Feb 2027 12:00:00 GMT"})";
  const auto retirement =
      event_json("e-9", "instance-retirement", "active", "3 Feb 2027 10:00:00 GMT");
  const auto outcome = watch.on_page(page({windowed, retirement}), now);
  REQUIRE(outcome.triggers.size() == 2);
  for (const auto& trigger : outcome.triggers) {
    CAPTURE(trigger.reason);
    if (trigger.reason.find("e-8") != std::string::npos)
      CHECK(trigger.deadline == at("2027-02-03T11:59:30Z"));
    else
      CHECK_FALSE(trigger.deadline);
  }
}
