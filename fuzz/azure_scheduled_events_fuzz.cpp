// libFuzzer target for Azure's Scheduled Events document and the instance compute metadata
// (JSON with RFC 1123 dates). Any body gives a document or an error, never both, and never an
// event without its id: a malformed document must not become a drain deadline or an
// approval of somebody else's event.
#include "fuzz/fuzz_promise.hpp"
#include "src/azure/azure_documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const std::string_view body = fuzz::as_text(data, size);
  const azure_events_parse parsed = parse_azure_scheduled_events(body);
  fuzz::require(parsed.document.has_value() == parsed.error.empty());
  if (parsed.document) {
    fuzz::require(parsed.document->events.size() <= azure_events_max);
    for (const auto& event : parsed.document->events) fuzz::require(!event.event_id.empty());
  }
  const azure_compute_parse compute = parse_azure_compute(body);
  fuzz::require(compute.compute.has_value() == compute.error.empty());
  if (compute.compute) fuzz::require(!compute.compute->name.empty());
  return 0;
}
