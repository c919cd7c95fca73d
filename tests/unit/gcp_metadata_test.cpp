// Google Cloud's metadata server, pure parts: one key watched with plain and
// hanging GETs (metadata_key_watch), and what the two warning keys mean
// (gcp_notice_watch), fed answers and wall-clock times by hand, against Google's documented
// protocol ("View and query VM metadata": Metadata-Flavor both ways, ETag, wait_for_change,
// last_etag, timeout_sec) and values (TRUE/FALSE; NONE, MIGRATE_ON_HOST_MAINTENANCE,
// TERMINATE_ON_HOST_MAINTENANCE).
#include <catch2/catch.hpp>

#include "src/gcp/gcp_identity.hpp"
#include "src/gcp/gcp_metadata_endpoint.hpp"
#include "src/gcp/gcp_notice_watch.hpp"
#include "src/gcp/metadata_key_watch.hpp"
#include "src/util/rfc3339_time.hpp"

using namespace runwarden;
using namespace std::chrono_literals;

namespace {

imds_answer google(std::string body, std::string etag) {
  return imds_answer{200, std::move(body), {}, {{"metadata-flavor", "Google"}, {"etag", etag}}};
}

metadata_key_watch preempted_watch() {
  return metadata_key_watch{{.endpoint = "http://169.254.169.254",
                             .key = "instance/preempted",
                             .wait_timeout = 300s,
                             .random_seed = 1}};
}

}  // namespace

TEST_CASE("a key is read plainly, then waited on with its ETag", "[gcp]") {
  auto watch = preempted_watch();
  const auto first = watch.start();
  CHECK(first.url == "http://169.254.169.254/computeMetadata/v1/instance/preempted");
  CHECK(first.headers ==
        std::vector<std::pair<std::string, std::string>>{{"Metadata-Flavor", "Google"}});
  CHECK(first.timeout == 2s);
  const auto read = watch.answer_arrived(google("FALSE", "c2f3a1b9e04d7a55"));
  CHECK(read.changed_value == "FALSE");
  REQUIRE(read.request);
  CHECK(read.request->url ==
        "http://169.254.169.254/computeMetadata/v1/instance/preempted?wait_for_change=true"
        "&timeout_sec=300&last_etag=c2f3a1b9e04d7a55");
  CHECK(read.request->timeout == 305s);  // the server, not the client, ends a quiet wait
  // A wait that ends on timeout_sec with the same value reports nothing and waits again.
  const auto quiet = watch.answer_arrived(google("FALSE", "c2f3a1b9e04d7a55"));
  CHECK_FALSE(quiet.changed_value);
  CHECK(quiet.request);
  const auto changed = watch.answer_arrived(google("TRUE\n", "0b5e77d1c3a9f214"));
  CHECK(changed.changed_value == "TRUE");
  CHECK(changed.request->url.ends_with("last_etag=0b5e77d1c3a9f214"));
}

TEST_CASE("answers without Metadata-Flavor, errors and silence back off", "[gcp]") {
  auto watch = preempted_watch();
  watch.start();
  const auto stranger = watch.answer_arrived(imds_answer{200, "TRUE", {}, {{"etag", "1"}}});
  CHECK_FALSE(stranger.changed_value);
  CHECK_FALSE(stranger.request);
  REQUIRE(stranger.retry_after);
  CHECK(*stranger.retry_after <= 1s);
  REQUIRE(stranger.reports.size() == 1);
  CHECK(stranger.reports[0].text ==
        "/computeMetadata/v1/instance/preempted: the answer lacks \"Metadata-Flavor: Google\"; "
        "it does not come from the metadata server; asking again with backoff");
  CHECK(watch.retry_due().url.find("wait_for_change") == std::string::npos);
  // The same problem again: a longer wait, no second report.
  const auto again = watch.answer_arrived(imds_answer{200, "TRUE", {}, {}});
  CHECK(again.reports.empty());
  CHECK(*again.retry_after > 1s);
  const auto busy = watch.answer_arrived(imds_answer{503, "", {}, {}});
  CHECK(busy.reports.size() == 1);
  const auto down = watch.answer_arrived(imds_answer{std::nullopt, "", "Connection refused", {}});
  CHECK(down.reports[0].text.find("no answer: Connection refused") != std::string::npos);
  for (int failures = 0; failures < 20; ++failures)
    CHECK(*watch.answer_arrived(imds_answer{503, "", {}, {}}).retry_after <= 30s);
  const auto back = watch.answer_arrived(google("FALSE", "7"));
  CHECK(back.changed_value == "FALSE");
  CHECK(back.reports[0].text == "/computeMetadata/v1/instance/preempted: answers again");
}

TEST_CASE("preemption drains once at once, maintenance per its value", "[gcp]") {
  gcp_notice_watch notices{{}};
  const auto now = *parse_rfc3339("2027-02-03T10:00:00Z");
  CHECK_FALSE(notices.on_preempted("FALSE", now).trigger);
  const auto preempted = notices.on_preempted("TRUE", now);
  REQUIRE(preempted.trigger);
  CHECK(preempted.trigger->source == trigger_source::gcp_preemption);
  CHECK(preempted.trigger->deadline == now + 25s);
  CHECK_FALSE(notices.on_preempted("TRUE", now + 1s).trigger);
  const auto migrate = notices.on_maintenance_event("MIGRATE_ON_HOST_MAINTENANCE", now);
  CHECK_FALSE(migrate.trigger);
  CHECK(migrate.reports.at(0).level == report_level::warning);
  CHECK(notices.on_maintenance_event("NONE", now).reports.at(0).text ==
        "host maintenance MIGRATE_ON_HOST_MAINTENANCE is over");
  const auto terminate = notices.on_maintenance_event("TERMINATE_ON_HOST_MAINTENANCE", now);
  REQUIRE(terminate.trigger);
  CHECK(terminate.trigger->source == trigger_source::gcp_host_maintenance);
  CHECK(terminate.trigger->deadline == now + 50s);
  const auto odd = notices.on_maintenance_event("SOMETHING_NEW\x1b", now);
  CHECK_FALSE(odd.trigger);
  CHECK(odd.reports.at(0).text ==
        "unknown instance/maintenance-event value \"SOMETHING_NEW?\"; "
        "it does not start a drain");
  CHECK(notices.on_maintenance_event("SOMETHING_NEW\x1b", now).reports.empty());
}

TEST_CASE("the Google Cloud endpoint and identity", "[gcp]") {
  CHECK(resolve_gcp_metadata_endpoint(std::nullopt, {}).endpoint == "http://169.254.169.254");
  CHECK(resolve_gcp_metadata_endpoint(std::nullopt, {{"GCE_METADATA_HOST", "127.0.0.1:8080"}})
            .endpoint == "http://127.0.0.1:8080");
  CHECK(resolve_gcp_metadata_endpoint(std::string{"http://10.0.0.1/"},
                                      {{"GCE_METADATA_HOST", "127.0.0.1:8080"}})
            .endpoint == "http://10.0.0.1");
  CHECK(describe(gcp_identity{"4520031799277581759", "runner-x7k2",
                              "projects/123/zones/europe-west1-b",
                              "projects/123/regions/europe-west1/instanceGroupManagers/runners"}) ==
        "instance \"4520031799277581759\" (\"runner-x7k2\") in \"europe-west1-b\", managed "
        "instance group \"runners\"");
  CHECK(describe(gcp_identity{"1", "", "", ""}) == "instance \"1\"");
}
