// See aws_error_envelope.hpp.
#include "src/aws/aws_error_envelope.hpp"

#include "src/aws/aws_xml_answer.hpp"

namespace runwarden {

aws_error_envelope_parse parse_aws_error_envelope(std::string_view body, std::string_view what) {
  xml_answer answer;
  load_xml_answer(body, what, answer);
  if (!answer.error.empty()) return {std::nullopt, answer.error};
  const auto root = answer.document.document_element();
  const std::string named{what};
  if (std::string_view{root.name()} != "ErrorResponse")
    return {std::nullopt, named + " is <" + root.name() + ">, not an <ErrorResponse>"};
  const auto error = root.child("Error");
  const auto code = child_text(error, "Code");
  if (!code || code->empty()) return {std::nullopt, named + " has no <Error><Code>"};
  return {aws_error_envelope{child_text(error, "Type").value_or(""), *code,
                             child_text(error, "Message").value_or(""),
                             child_text(root, "RequestId").value_or("")},
          {}};
}

}  // namespace runwarden
