// libFuzzer target for the instance identity document (nlohmann-json, then field checks).
// Any body gives the three fields, each non-empty, or an error; never half a value.
#include "fuzz/fuzz_promise.hpp"
#include "src/aws/imds/imds_documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const identity_parse parsed = parse_instance_identity(fuzz::as_text(data, size));
  fuzz::require(parsed.identity.has_value() == parsed.error.empty());
  if (parsed.identity) {
    fuzz::require(!parsed.identity->instance_id.empty());
    fuzz::require(!parsed.identity->region.empty());
  }
  return 0;
}
