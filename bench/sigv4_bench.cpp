// How many SigV4-signed Auto Scaling calls per second: a CompleteLifecycleAction with
// temporary (instance role) credentials, from parameters to the headers on the wire, and the
// signer alone on the same request. runwarden sends a handful of these a minute; the figure
// shows signing is never what limits it.
#include <benchmark/benchmark.h>

#include <chrono>

#include "src/aws/autoscaling_http_request.hpp"
#include "src/util/sha256_digest.hpp"

namespace {

using namespace runwarden;

const aws_credentials role_credentials{
    "ASIAEXAMPLE", secret_text{"wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"},
    secret_text{std::string(800, 'T')}};  // role session tokens are several hundred bytes
const lifecycle_action_target target{"drain-hook", "ci-runners", "i-1234567890abcdef0", {}};
const auto request_time =
    std::chrono::system_clock::time_point{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};

void complete_lifecycle_action_signed(benchmark::State& state) {
  const auto endpoint = resolve_autoscaling_endpoint({}, "us-east-1").endpoint.value();
  for (auto _ : state) {
    auto request = sign_autoscaling_call(
        complete_lifecycle_action_call(target, lifecycle_action_result::proceed), endpoint,
        role_credentials, "us-east-1", request_time);
    benchmark::DoNotOptimize(request);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(complete_lifecycle_action_signed);

void signer_only(benchmark::State& state) {
  const auto body = form_encode(
      complete_lifecycle_action_call(target, lifecycle_action_result::proceed).parameters);
  const sigv4_request request{"POST",
                              "/",
                              {},
                              {{"Content-Type", std::string{form_content_type}},
                               {"Host", "autoscaling.us-east-1.amazonaws.com"}},
                              sha256_hex(body)};
  for (auto _ : state) {
    auto signature =
        sign_sigv4(request, role_credentials, {"us-east-1", "autoscaling"}, request_time);
    benchmark::DoNotOptimize(signature);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(signer_only);

}  // namespace

BENCHMARK_MAIN();
