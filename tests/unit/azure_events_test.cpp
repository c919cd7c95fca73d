// Azure Scheduled Events, pure parts: the document's parser against the example
// of Microsoft's "Scheduled Events for Linux VMs" page and bad documents, the approval body,
// the compute metadata, and the watch's decisions: only events naming this machine count,
// each once, Preempt and Terminate drain with NotBefore minus the margin.
#include <catch2/catch.hpp>

#include "src/azure/azure_event_watch.hpp"
#include "src/util/rfc3339_time.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

namespace {

// The documentation's sample document (its EventId, its RFC 1123 NotBefore; its Description
// cut to fit the line).
constexpr std::string_view documented = R"({
  "DocumentIncarnation": 1,
  "Events": [
    {
      "EventId": "f020ba2e-3bc0-4c40-a10b-86575a9eabd5",
      "EventType": "Freeze",
      "ResourceType": "VirtualMachine",
      "Resources": ["WestNO_0", "WestNO_1"],
      "EventStatus": "Scheduled",
      "NotBefore": "Mon, 11 Apr 2022 22:26:58 GMT",
      "Description": "Virtual machine is being paused because of a memory-preserving Live",
      "EventSource": "Platform",
      "DurationInSeconds": 5
    }
  ]
})";

std::string document(std::int64_t incarnation, const std::string& events) {
  return "{\"DocumentIncarnation\": " + std::to_string(incarnation) + ", \"Events\": [" + events +
         "]}";
}

std::string event(const std::string& id, const std::string& type, const std::string& resource,
                  const std::string& status = "Scheduled",
                  const std::string& not_before = "Wed, 03 Feb 2027 10:00:30 GMT") {
  return R"({"EventId": ")" + id + R"(", "EventType": ")" + type +
         R"(", "ResourceType": "VirtualMachine", "Resources": [")" + resource +
         R"("], "EventStatus": ")" + status + R"(", "NotBefore": ")" + not_before +
         R"(", "Description": "", "EventSource": "Platform", "DurationInSeconds": -1})";
}

imds_answer ok(std::string body) { return imds_answer{200, std::move(body), {}, {}}; }

wall_time at(std::string_view text) { return *parse_rfc3339(text); }

}  // namespace

TEST_CASE("the documented Scheduled Events document parses", "[azure]") {
  const auto parsed = parse_azure_scheduled_events(documented);
  INFO(parsed.error);
  REQUIRE(parsed.document);
  CHECK(parsed.document->incarnation == 1);
  REQUIRE(parsed.document->events.size() == 1);
  const auto& freeze = parsed.document->events[0];
  CHECK(freeze.event_id == "f020ba2e-3bc0-4c40-a10b-86575a9eabd5");
  CHECK(freeze.type == azure_event_type::freeze);
  CHECK(freeze.resources == std::vector<std::string>{"WestNO_0", "WestNO_1"});
  CHECK(freeze.status == azure_event_status::scheduled);
  CHECK(freeze.not_before == at("2022-04-11T22:26:58Z"));
  const auto started =
      parse_azure_scheduled_events(document(2, event("e", "Preempt", "vm", "Started", "")));
  REQUIRE(started.document);
  CHECK_FALSE(started.document->events[0].not_before);
  CHECK(parse_azure_scheduled_events(R"({"DocumentIncarnation": 0, "Events": []})").document);
  CHECK(azure_start_requests_body({"f020ba2e-3bc0-4c40-a10b-86575a9eabd5"}) ==
        R"({"StartRequests":[{"EventId":"f020ba2e-3bc0-4c40-a10b-86575a9eabd5"}]})");
}

TEST_CASE("bad Scheduled Events documents are refused whole, by field", "[azure]") {
  const std::vector<std::pair<std::string, std::string>> rows{
      {"<html/>", "scheduled events is not JSON (an error page from a proxy?)"},
      {"[]", "scheduled events is JSON but not an object"},
      {R"({"Events": []})", "scheduled events has no \"DocumentIncarnation\" integer"},
      {R"({"DocumentIncarnation": 1})", "scheduled events has no \"Events\" list"},
      {document(1, R"({"EventId": "e"})"),
       "scheduled events Events[0] has no \"EventType\" string"},
      {document(1, event("e", "Preempt", "vm", "Scheduled", "tomorrow")),
       "scheduled events Events[0] \"NotBefore\" is not an RFC 1123 date such as \"Mon, 19 Sep "
       "2016 18:29:47 GMT\""},
      {document(1, R"({"EventId": "e", "EventType": "Preempt", "EventStatus": "Scheduled",
                       "NotBefore": "", "Resources": [7]})"),
       "scheduled events Events[0] \"Resources\" holds something other than names"},
  };
  for (const auto& [body, error] : rows) {
    CAPTURE(body);
    const auto parsed = parse_azure_scheduled_events(body);
    CHECK_FALSE(parsed.document);
    CHECK(parsed.error == error);
  }
}

TEST_CASE("the compute metadata gives the name events are matched with", "[azure]") {
  const auto parsed = parse_azure_compute(
      R"({"name": "runners_3", "resourceId": "/subscriptions/x/virtualMachines/3",
          "vmScaleSetName": "runners", "location": "westeurope"})");
  REQUIRE(parsed.compute);
  CHECK(parsed.compute->name == "runners_3");
  CHECK(parsed.compute->scale_set == "runners");
  CHECK(parse_azure_compute(R"({"location": "westeurope"})").error ==
        "instance compute metadata has no \"name\" string");
}

TEST_CASE("Preempt and Terminate naming this machine drain once, approved by EventId", "[azure]") {
  azure_event_watch watch{{}, "runners_3"};
  const auto now = at("2027-02-03T10:00:00Z");
  const auto others =
      watch.on_document(ok(document(1, event("t-7", "Terminate", "runners_7") + "," +
                                           event("f-3", "Freeze", "runners_3"))),
                        now);
  CHECK(others.triggers.empty());
  CHECK(others.reports.size() == 2);
  const auto preempt =
      watch.on_document(ok(document(2, event("t-7", "Terminate", "runners_7") + "," +
                                           event("p-3", "Preempt", "runners_3"))),
                        now);
  REQUIRE(preempt.triggers.size() == 1);
  CHECK(preempt.triggers[0].source == trigger_source::azure_preempt);
  CHECK(preempt.triggers[0].deadline == at("2027-02-03T10:00:25Z"));
  CHECK(preempt.triggers[0].reason ==
        "Azure \"Preempt\" event \"p-3\" not before Wed, 03 Feb 2027 10:00:30 GMT");
  CHECK(preempt.approvals == std::vector<azure_approval>{{"p-3", at("2027-02-03T10:00:30Z")}});
  // The same incarnation is not read again; a new one with the same event adds nothing.
  CHECK(watch.on_document(ok(document(2, "")), now).triggers.empty());
  CHECK(watch.on_document(ok(document(3, event("p-3", "Preempt", "runners_3", "Started", ""))), now)
            .triggers.empty());
  const auto terminate = watch.on_document(
      ok(document(4, event("t-3", "Terminate", "runners_3", "Started", ""))), now);
  REQUIRE(terminate.triggers.size() == 1);
  CHECK(terminate.triggers[0].source == trigger_source::azure_terminate);
  CHECK(terminate.triggers[0].deadline == now - 5s);  // started already: at once
}

TEST_CASE("Reboot and Redeploy drain only when configured, and failures are said once", "[azure]") {
  const auto now = at("2027-02-03T10:00:00Z");
  azure_event_watch logging{{}, "vm"};
  CHECK(logging.on_document(ok(document(1, event("r", "Reboot", "vm"))), now).triggers.empty());
  azure_event_policy draining;
  draining.reboot = azure_optional_action::drain;
  draining.redeploy = azure_optional_action::drain;
  azure_event_watch watch{draining, "vm"};
  const auto outcome = watch.on_document(
      ok(document(1, event("r", "Reboot", "vm") + "," + event("d", "Redeploy", "vm"))), now);
  REQUIRE(outcome.triggers.size() == 2);
  CHECK(outcome.triggers[0].source == trigger_source::azure_reboot);
  CHECK(outcome.triggers[1].source == trigger_source::azure_redeploy);
  const auto failed =
      watch.on_document(imds_answer{std::nullopt, "", "timed out after 5001 ms", {}}, now);
  CHECK(failed.reports.at(0).text == "scheduled events: no answer: timed out after 5001 ms");
  CHECK(watch.on_document(imds_answer{std::nullopt, "", "timed out after 5002 ms", {}}, now)
            .reports.empty());
  CHECK(watch.on_document(imds_answer{400, "{}", {}, {}}, now).reports.at(0).text ==
        "scheduled events: unexpected HTTP 400");
}
