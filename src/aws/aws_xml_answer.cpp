// See aws_xml_answer.hpp.
#include "src/aws/aws_xml_answer.hpp"

#include <algorithm>
#include <cctype>

namespace runwarden {

namespace {

bool looks_like_html(std::string_view body) {
  const auto start = std::find_if(body.begin(), body.end(), [](char character) {
    return !std::isspace(static_cast<unsigned char>(character));
  });
  std::string head{start, start + std::min<std::ptrdiff_t>(body.end() - start, 14)};
  std::transform(head.begin(), head.end(), head.begin(), [](char character) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(character)));
  });
  return head.starts_with("<!doctype html") || head.starts_with("<html");
}

}  // namespace

void load_xml_answer(std::string_view body, std::string_view what, xml_answer& answer) {
  answer.error.clear();
  const std::string named{what};
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    answer.error = named + " is empty";
    return;
  }
  if (looks_like_html(body)) {
    answer.error = named + " is an HTML page, not an AWS answer (a proxy or a wrong endpoint?)";
    return;
  }
  const auto result = answer.document.load_buffer(body.data(), body.size(), pugi::parse_default,
                                                  pugi::encoding_utf8);
  if (!result) {
    answer.error = named + " is not well-formed XML (" + result.description() + " at byte " +
                   std::to_string(result.offset) + " of " + std::to_string(body.size()) +
                   "; cut off?)";
  }
}

std::optional<std::string> child_text(const pugi::xml_node& parent, const char* name) {
  const auto child = parent.child(name);
  if (!child) return std::nullopt;
  return std::string{child.text().get()};
}

}  // namespace runwarden
