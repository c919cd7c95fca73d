// libFuzzer target for the shutdown callback of gitlab-runner's process wrapper API
// (InitGracefulShutdown), read and checked as process_wrapper_service does: the bytes are
// the request's protobuf encoding. An accepted callback keeps every bound and carries no
// line break in a header, which would let a caller write extra headers into the request
// runwarden later sends.
#include "fuzz/fuzz_promise.hpp"
#include "gitlab_runner/runner_wrapper.pb.h"
#include "src/control/shutdown_request_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace runwarden;
  gitlab_com::gitlab_runner::runner_wrapper::InitGracefulShutdownRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return 0;
  if (!request.has_shutdowncallback()) return 0;
  const auto callback = callback_from_wire(request.shutdowncallback());
  if (!callback || callback_problem(*callback)) return 0;
  fuzz::require(callback->url.size() <= callback_url_bytes_max);
  fuzz::require(callback->method.size() <= callback_method_bytes_max);
  fuzz::require(callback->headers.size() <= callback_headers_max);
  for (const auto& [name, value] : callback->headers) {
    fuzz::require(name.find_first_of("\r\n") == std::string::npos);
    fuzz::require(value.find_first_of("\r\n") == std::string::npos);
  }
  return 0;
}
