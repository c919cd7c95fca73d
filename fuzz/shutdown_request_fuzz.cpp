// libFuzzer target for runwarden.v1's Shutdown request as the gRPC service checks it:
// the bytes are the request's protobuf encoding (seeds written with `protoc --encode`), so
// what the fuzzer varies is what a client can send. A request is refused with a reason or
// becomes a drain event whose every field is within its bound.
#include "fuzz/fuzz_promise.hpp"
#include "src/control/shutdown_call_check.hpp"
#include "src/control/shutdown_request_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  v1::ShutdownRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return 0;
  const instant now{std::chrono::hours{1}};
  const checked_shutdown checked = check_shutdown_request(request, now);
  fuzz::require(checked.event.has_value() == checked.error.empty());
  if (!checked.event) return 0;
  fuzz::require(checked.event->reason.size() <= reason_bytes_max);
  if (checked.event->deadline) {
    fuzz::require(*checked.event->deadline >= now);
    fuzz::require(*checked.event->deadline <= now + shutdown_deadline_max);
  }
  if (checked.event->callback) {
    fuzz::require(checked.event->callback->url.size() <= callback_url_bytes_max);
    fuzz::require(checked.event->callback->headers.size() <= callback_headers_max);
  }
  return 0;
}
