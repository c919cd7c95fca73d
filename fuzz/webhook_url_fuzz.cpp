// libFuzzer target for webhook and callback URLs (libcurl's URL parser, then runwarden's
// rules). An accepted URL is http or https with a host, and its label, the only part that
// reaches a log, is "scheme://host:port" and nothing of the path or query.
#include "fuzz/fuzz_promise.hpp"
#include "src/webhook/webhook_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  const target_parse_result parsed = parse_webhook_target(fuzz::as_text(data, size));
  fuzz::require(parsed.target.has_value() == parsed.error.empty());
  if (!parsed.target) return 0;
  const webhook_target& target = *parsed.target;
  fuzz::require(target.scheme == "http" || target.scheme == "https");
  fuzz::require(!target.host.empty());
  fuzz::require(target.port != 0);
  fuzz::require(target.label().starts_with(target.scheme + "://"));
  fuzz::require(target.label().find('?') == std::string::npos);
  return 0;
}
