// See autoscaling_failure.hpp.
#include "src/aws/autoscaling_failure.hpp"

#include <algorithm>
#include <initializer_list>

#include "src/aws/aws_error_envelope.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

// AWS messages are short; a cap keeps a misbehaving endpoint from filling the log.
constexpr std::size_t message_bytes_max = 512;

constexpr std::string_view no_active_action = "No active Lifecycle Action found";

bool one_of(std::string_view code, std::initializer_list<std::string_view> codes) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

// Statuses that say "later" whatever the body: 408 Request Timeout and 429 Too Many Requests
// (sent by proxies and endpoints in front of the service, often without an AWS envelope),
// and every 5xx.
bool transient_status(int http_status) {
  return http_status == 408 || http_status == 429 || http_status >= 500;
}

// The throttling and transient codes of the AWS SDKs' standard retry mode (boto3's retry
// guide, docs/source/guide/retries.rst in boto/boto3), less the DynamoDB-only ones and
// LimitExceededException (a quota elsewhere), plus Auto Scaling's ResourceContention and
// ServiceUnavailable, which some Query APIs send with a 4xx.
bool transient_code(std::string_view code) {
  return one_of(
      code,
      {"Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
       "TooManyRequestsException", "RequestLimitExceeded", "BandwidthLimitExceeded",
       "RequestThrottled", "SlowDown", "EC2ThrottledException", "PriorRequestNotComplete",
       "RequestTimeout", "RequestTimeoutException", "ResourceContention", "ServiceUnavailable"});
}

autoscaling_failure_kind kind_of(const aws_error_envelope& envelope, int http_status) {
  const auto& code = envelope.code;
  if (transient_code(code)) return autoscaling_failure_kind::retry_with_backoff;
  if (code == "ScalingActivityInProgress") return autoscaling_failure_kind::retry_later;
  if (code == "ValidationError" && envelope.message.find(no_active_action) != std::string::npos)
    return autoscaling_failure_kind::already_done;
  if (one_of(code, {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation"}))
    return autoscaling_failure_kind::access_denied;
  if (one_of(code, {"ExpiredToken", "ExpiredTokenException", "InvalidClientTokenId",
                    "SignatureDoesNotMatch", "RequestExpired", "IncompleteSignature"}))
    return autoscaling_failure_kind::credentials_rejected;
  if (transient_status(http_status)) return autoscaling_failure_kind::retry_with_backoff;
  return autoscaling_failure_kind::failed;
}

std::string capped(std::string text) {
  if (text.size() > message_bytes_max) text = text.substr(0, message_bytes_max) + "...";
  return text;
}

}  // namespace

autoscaling_failure classify_autoscaling_failure(const autoscaling_call& call, int http_status,
                                                 std::string_view body) {
  RUNWARDEN_ASSERT(http_status < 200 || http_status > 299);
  const std::string what =
      "the " + call.action + " answer (HTTP " + std::to_string(http_status) + ")";
  const auto parse = parse_aws_error_envelope(body, what);
  if (!parse.envelope) {
    const auto kind = transient_status(http_status) ? autoscaling_failure_kind::retry_with_backoff
                                                    : autoscaling_failure_kind::failed;
    return {kind, {}, capped(parse.error)};
  }
  const auto& envelope = *parse.envelope;
  const auto kind = kind_of(envelope, http_status);
  std::string description = call.action + " failed (HTTP " + std::to_string(http_status) +
                            "): " + envelope.code + ": " + capped(envelope.message);
  if (kind == autoscaling_failure_kind::access_denied)
    description += " (the credentials lack the IAM permission " + required_permission(call) + ")";
  if (kind == autoscaling_failure_kind::already_done)
    description = call.action + ": no active lifecycle action, so it is already complete";
  return {kind, envelope.code, std::move(description)};
}

std::string_view failure_kind_name(autoscaling_failure_kind kind) {
  switch (kind) {
    case autoscaling_failure_kind::retry_with_backoff:
      return "retry_with_backoff";
    case autoscaling_failure_kind::retry_later:
      return "retry_later";
    case autoscaling_failure_kind::already_done:
      return "already_done";
    case autoscaling_failure_kind::access_denied:
      return "access_denied";
    case autoscaling_failure_kind::credentials_rejected:
      return "credentials_rejected";
    case autoscaling_failure_kind::failed:
      return "failed";
  }
  return "failed";
}

bool retrying_can_help(autoscaling_failure_kind kind) {
  switch (kind) {
    case autoscaling_failure_kind::retry_with_backoff:
    case autoscaling_failure_kind::retry_later:
    case autoscaling_failure_kind::credentials_rejected:
      return true;
    case autoscaling_failure_kind::already_done:
    case autoscaling_failure_kind::access_denied:
    case autoscaling_failure_kind::failed:
      return false;
  }
  return false;
}

}  // namespace runwarden
