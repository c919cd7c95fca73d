// See answer_text.hpp.
#include "src/unregister/answer_text.hpp"

#include "src/util/url_userinfo.hpp"

namespace runwarden {

std::string redact(std::string_view text, std::string_view secret) {
  std::string result{text};
  if (secret.empty()) return result;
  for (std::size_t at = result.find(secret); at != std::string::npos;
       at = result.find(secret, at + redacted_text.size()))
    result.replace(at, secret.size(), redacted_text);
  return result;
}

std::string answer_excerpt(std::string_view body, std::string_view secret) {
  const std::string redacted = redact(body, secret);
  std::string excerpt;
  bool after_space = true;  // drops leading white space and runs of it
  for (const char character : redacted) {
    const auto byte = static_cast<unsigned char>(character);
    const bool space = byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r';
    if (space) {
      if (!after_space) excerpt += ' ';
      after_space = true;
    } else {
      excerpt += byte >= 0x20 && byte < 0x7f ? character : '?';
      after_space = false;
    }
    if (excerpt.size() >= answer_excerpt_bytes_max) {
      excerpt += "...";
      return excerpt;
    }
  }
  while (excerpt.ends_with(' ')) excerpt.pop_back();
  return excerpt;
}

std::string describe_answer(const http_response& answer, std::string_view secret) {
  if (!answer.status_code)
    return "no answer: " + redact_url_userinfo(redact(answer.transport_error, secret));
  const std::string status = "HTTP " + std::to_string(*answer.status_code);
  const std::string excerpt = answer_excerpt(answer.body, secret);
  return excerpt.empty() ? status + " (empty body)" : status + ": " + excerpt;
}

const std::string* find_header(const http_response& answer, std::string_view name) {
  for (const auto& [header, value] : answer.headers)
    if (header == name) return &value;
  return nullptr;
}

}  // namespace runwarden
