// libFuzzer target for durations as config.toml and flags write them (Go's
// time.ParseDuration syntax). An accepted duration is not negative, no longer than
// duration_max (so that no deadline made of it overflows the nanosecond clocks), and
// survives the trip through format_duration unchanged, the spelling runwarden writes in logs
// and status.
#include "fuzz/fuzz_promise.hpp"
#include "src/util/duration_text.hpp"
#include "src/util/time_bounds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const duration_parse_result parsed = parse_duration(fuzz::as_text(data, size));
  fuzz::require(parsed.value.has_value() == parsed.error.empty());
  if (!parsed.value) return 0;
  fuzz::require(parsed.value->count() >= 0 && *parsed.value <= duration_max);
  const duration_parse_result again = parse_duration(format_duration(*parsed.value));
  fuzz::require(again.value == parsed.value);
  return 0;
}
