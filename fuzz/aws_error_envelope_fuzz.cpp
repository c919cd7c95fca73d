// libFuzzer target for the Query protocol's error envelope, which comes back on every
// refused call and on whatever a proxy puts in its place (HTML, a cut-off body, nothing).
// Any body gives an envelope with a code or an error naming the answer.
#include "fuzz/fuzz_promise.hpp"
#include "src/aws/aws_error_envelope.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const aws_error_envelope_parse parsed =
      parse_aws_error_envelope(fuzz::as_text(data, size), "the fuzzed answer");
  fuzz::require(parsed.envelope.has_value() == parsed.error.empty());
  if (parsed.envelope) fuzz::require(!parsed.envelope->code.empty());
  if (!parsed.error.empty())
    fuzz::require(parsed.error.find("the fuzzed answer") != std::string::npos);
  return 0;
}
