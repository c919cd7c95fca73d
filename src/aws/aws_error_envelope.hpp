#pragma once
// The Query protocol's error answer:
//   <ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>
// Only Code is required; the rest may be missing and read as empty.

#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

struct aws_error_envelope {
  std::string type;  // "Sender" or "Receiver"
  std::string code;  // "Throttling", "ValidationError", ...
  std::string message;
  std::string request_id;
};

struct aws_error_envelope_parse {
  std::optional<aws_error_envelope> envelope;  // set exactly when error is empty
  std::string error;
};

// `what` names the answer in errors: "the CompleteLifecycleAction answer".
aws_error_envelope_parse parse_aws_error_envelope(std::string_view body, std::string_view what);

}  // namespace runwarden
