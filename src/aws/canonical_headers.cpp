// See canonical_headers.hpp.
#include "src/aws/canonical_headers.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace runwarden {

namespace {

bool header_whitespace(char character) {
  return character == ' ' || character == '\t' || character == '\r' || character == '\n' ||
         character == '\v' || character == '\f';
}

std::string lower_case(std::string_view text) {
  std::string lowered{text};
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](char character) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(character)));
  });
  return lowered;
}

}  // namespace

std::string trimmed_header_value(std::string_view value) {
  std::string trimmed;
  bool pending_space = false;
  for (const char character : value) {
    if (header_whitespace(character)) {
      pending_space = !trimmed.empty();
      continue;
    }
    if (pending_space) trimmed.push_back(' ');
    pending_space = false;
    trimmed.push_back(character);
  }
  return trimmed;
}

canonical_header_block canonicalize_headers(const header_list& headers) {
  // std::map keeps names sorted by byte, and each name's values in the order sent.
  std::map<std::string, std::vector<std::string>> values_by_name;
  for (const auto& [name, value] : headers)
    values_by_name[lower_case(name)].push_back(trimmed_header_value(value));
  canonical_header_block block;
  for (const auto& [name, values] : values_by_name) {
    block.canonical.append(name).push_back(':');
    for (std::size_t index = 0; index < values.size(); ++index) {
      if (index > 0) block.canonical.push_back(',');
      block.canonical.append(values[index]);
    }
    block.canonical.push_back('\n');
    if (!block.signed_headers.empty()) block.signed_headers.push_back(';');
    block.signed_headers.append(name);
  }
  return block;
}

}  // namespace runwarden
