// Failed Auto Scaling calls are classified by what the caller must do next. Each class gets
// the envelope AWS sends for it (the shared samples for throttling and the idempotent
// completion, constructed envelopes for the rest) and the bodies that are no envelope at all.

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "src/aws/autoscaling_failure.hpp"
#include "src/aws/aws_error_envelope.hpp"
#include "tests/common/file_bytes.hpp"

namespace {

using namespace runwarden;
using runwarden::testing::file_bytes;

const std::string aws_data = RUNWARDEN_TEST_DATA_DIR "/aws/";

std::string envelope(const std::string& code, const std::string& message) {
  return "<ErrorResponse xmlns=\"http://autoscaling.amazonaws.com/doc/2011-01-01/\"><Error>"
         "<Type>Sender</Type><Code>" +
         code + "</Code><Message>" + message +
         "</Message></Error><RequestId>r-1</RequestId></ErrorResponse>";
}

const autoscaling_call completion = complete_lifecycle_action_call(
    {"drain", "runners", "i-0abc", {}}, lifecycle_action_result::proceed);

}  // namespace

TEST_CASE("the error envelope parses into its four fields", "[autoscaling]") {
  const auto parse =
      parse_aws_error_envelope(file_bytes(aws_data + "error_validation.xml"), "the answer");
  REQUIRE(parse.envelope);
  CHECK(parse.envelope->type == "Sender");
  CHECK(parse.envelope->code == "ValidationError");
  CHECK(parse.envelope->message ==
        "No active Lifecycle Action found with instance ID i-1234567890abcdef0");
  CHECK(parse.envelope->request_id == "5b2e6f3a-0000-4000-8000-000000000001");
  CHECK(parse_aws_error_envelope(file_bytes(aws_data + "terminate_ok.xml"), "the answer").error ==
        "the answer is <TerminateInstanceInAutoScalingGroupResponse>, not an <ErrorResponse>");
  CHECK(parse_aws_error_envelope("<ErrorResponse><Error/></ErrorResponse>", "the answer").error ==
        "the answer has no <Error><Code>");
}

TEST_CASE("throttling and contention are retried with backoff", "[autoscaling]") {
  const auto throttled =
      classify_autoscaling_failure(completion, 400, file_bytes(aws_data + "error_throttling.xml"));
  CHECK(throttled.kind == autoscaling_failure_kind::retry_with_backoff);
  CHECK(throttled.code == "Throttling");
  CHECK(throttled.description ==
        "CompleteLifecycleAction failed (HTTP 400): Throttling: Rate exceeded");
  for (const auto* code : {"ThrottlingException", "RequestLimitExceeded", "ResourceContention"}) {
    INFO(code);
    CHECK(classify_autoscaling_failure(completion, 400, envelope(code, "busy")).kind ==
          autoscaling_failure_kind::retry_with_backoff);
  }
}

// The codes and statuses the AWS SDKs retry (boto3's retry guide, docs/source/guide/retries.rst
// in boto/boto3: standard mode's throttling and transient codes, legacy mode's 429), whatever
// status carries them: a throttled or timed-out call is the same call later, never a refusal.
TEST_CASE("every throttling and transient code, and 408 and 429, is retried", "[autoscaling]") {
  for (const auto* code :
       {"ThrottledException", "RequestThrottledException", "TooManyRequestsException",
        "RequestThrottled", "SlowDown", "EC2ThrottledException", "BandwidthLimitExceeded",
        "PriorRequestNotComplete", "RequestTimeout", "RequestTimeoutException",
        "ServiceUnavailable"}) {
    INFO(code);
    CHECK(classify_autoscaling_failure(completion, 400, envelope(code, "later")).kind ==
          autoscaling_failure_kind::retry_with_backoff);
  }
  for (const int status : {408, 429}) {
    INFO(status);
    CHECK(classify_autoscaling_failure(completion, status, "").kind ==
          autoscaling_failure_kind::retry_with_backoff);
    CHECK(classify_autoscaling_failure(completion, status, "<html>Too Many Requests</html>").kind ==
          autoscaling_failure_kind::retry_with_backoff);
    CHECK(classify_autoscaling_failure(completion, status, envelope("Weird", "slow down")).kind ==
          autoscaling_failure_kind::retry_with_backoff);
  }
  // A quota is not throttling: Auto Scaling's LimitExceeded stays a refusal.
  CHECK(classify_autoscaling_failure(completion, 400, envelope("LimitExceeded", "quota")).kind ==
        autoscaling_failure_kind::failed);
}

TEST_CASE("only what the same call later can change is worth another attempt", "[autoscaling]") {
  CHECK(retrying_can_help(autoscaling_failure_kind::retry_with_backoff));
  CHECK(retrying_can_help(autoscaling_failure_kind::retry_later));
  CHECK(retrying_can_help(autoscaling_failure_kind::credentials_rejected));
  CHECK_FALSE(retrying_can_help(autoscaling_failure_kind::already_done));
  CHECK_FALSE(retrying_can_help(autoscaling_failure_kind::access_denied));
  CHECK_FALSE(retrying_can_help(autoscaling_failure_kind::failed));
}

TEST_CASE("a 5xx is retried with backoff, envelope or not", "[autoscaling]") {
  CHECK(classify_autoscaling_failure(completion, 500, envelope("InternalFailure", "oops")).kind ==
        autoscaling_failure_kind::retry_with_backoff);
  const auto gateway = classify_autoscaling_failure(
      completion, 503, "<html><body>503 Service Unavailable</body></html>");
  CHECK(gateway.kind == autoscaling_failure_kind::retry_with_backoff);
  CHECK(gateway.code.empty());
  CHECK(gateway.description ==
        "the CompleteLifecycleAction answer (HTTP 503) is an HTML page, "
        "not an AWS answer (a proxy or a wrong endpoint?)");
}

TEST_CASE("no active lifecycle action means the completion is already done", "[autoscaling]") {
  const auto done =
      classify_autoscaling_failure(completion, 400, file_bytes(aws_data + "error_validation.xml"));
  CHECK(done.kind == autoscaling_failure_kind::already_done);
  CHECK(done.code == "ValidationError");
  // Any other validation error is a real failure.
  const auto other = classify_autoscaling_failure(
      completion, 400, envelope("ValidationError", "Unable to find hook drain"));
  CHECK(other.kind == autoscaling_failure_kind::failed);
  CHECK(other.description ==
        "CompleteLifecycleAction failed (HTTP 400): ValidationError: Unable to find hook drain");
}

TEST_CASE("access denied names the missing permission", "[autoscaling]") {
  for (const auto* code : {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation"}) {
    INFO(code);
    const auto denied = classify_autoscaling_failure(completion, 403, envelope(code, "no"));
    CHECK(denied.kind == autoscaling_failure_kind::access_denied);
    CHECK(denied.description == "CompleteLifecycleAction failed (HTTP 403): " + std::string{code} +
                                    ": no (the credentials lack the IAM permission "
                                    "autoscaling:CompleteLifecycleAction)");
  }
}

TEST_CASE("a scaling activity in progress is retried later", "[autoscaling]") {
  const auto busy = classify_autoscaling_failure(
      set_desired_capacity("runners", 3, true), 400,
      envelope("ScalingActivityInProgress", "Scaling activity is in progress"));
  CHECK(busy.kind == autoscaling_failure_kind::retry_later);
  CHECK(failure_kind_name(busy.kind) == "retry_later");
}

TEST_CASE("rejected credentials ask for fresh ones", "[autoscaling]") {
  for (const auto* code :
       {"ExpiredToken", "InvalidClientTokenId", "SignatureDoesNotMatch", "RequestExpired"}) {
    INFO(code);
    CHECK(classify_autoscaling_failure(completion, 403, envelope(code, "x")).kind ==
          autoscaling_failure_kind::credentials_rejected);
  }
}

TEST_CASE("bodies that are no envelope fail clearly", "[autoscaling]") {
  const auto cut = classify_autoscaling_failure(
      completion, 400, file_bytes(aws_data + "error_validation.xml").substr(0, 120));
  CHECK(cut.kind == autoscaling_failure_kind::failed);
  CHECK_THAT(cut.description, Catch::StartsWith("the CompleteLifecycleAction answer (HTTP 400) is "
                                                "not well-formed XML ("));
  const auto empty = classify_autoscaling_failure(completion, 404, "");
  CHECK(empty.description == "the CompleteLifecycleAction answer (HTTP 404) is empty");
  const auto unknown = classify_autoscaling_failure(completion, 400, envelope("Weird", "what"));
  CHECK(unknown.kind == autoscaling_failure_kind::failed);
  CHECK(unknown.code == "Weird");
}

TEST_CASE("a huge message is cut in the description", "[autoscaling]") {
  const auto long_message =
      classify_autoscaling_failure(completion, 400, envelope("Weird", std::string(5000, 'x')));
  CHECK(long_message.description.size() < 600);
  CHECK(long_message.description.ends_with("..."));
}
