// See log_quote.hpp.
#include "src/util/log_quote.hpp"

namespace runwarden {

std::string log_quote(std::string_view text) {
  std::string shown;
  for (const char character : text.substr(0, log_quote_length_max)) {
    const auto byte = static_cast<unsigned char>(character);
    shown += byte >= ' ' && byte < 0x7f ? character : '?';
  }
  if (text.size() > log_quote_length_max) shown += "...";
  return "\"" + shown + "\"";
}

}  // namespace runwarden
