// libFuzzer target for EC2's scheduled maintenance events page (a JSON list of events with
// GMT dates). Any body gives the events or an error, never both and never an event without
// its id, code or NotBefore: a malformed page must not become a drain deadline. Seed
// system_reboot.json is the AWS user guide's example of the page ("View scheduled events").
#include "fuzz/fuzz_promise.hpp"
#include "src/aws/imds/scheduled_events.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const scheduled_events_parse parsed = parse_scheduled_events(fuzz::as_text(data, size));
  fuzz::require(parsed.events.has_value() == parsed.error.empty());
  if (!parsed.events) return 0;
  fuzz::require(parsed.events->size() <= scheduled_events_max);
  for (const auto& event : *parsed.events)
    fuzz::require(!event.event_id.empty() && !event.code.empty());
  return 0;
}
