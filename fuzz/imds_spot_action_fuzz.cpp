// libFuzzer target for the spot instance-action notice and the rebalance recommendation
// (both JSON with an RFC 3339 time). Any body gives a notice or an error, never a notice
// with a made-up time: a malformed notice must not become a drain deadline.
#include "fuzz/fuzz_promise.hpp"
#include "src/aws/imds/imds_documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const std::string_view body = fuzz::as_text(data, size);
  const spot_action_parse spot = parse_spot_instance_action(body);
  fuzz::require(spot.notice.has_value() == spot.error.empty());
  if (spot.notice) fuzz::require(!spot.notice->action.empty());
  const rebalance_parse rebalance = parse_rebalance_recommendation(body);
  fuzz::require(rebalance.notice_time.has_value() == rebalance.error.empty());
  return 0;
}
