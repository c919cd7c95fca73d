#pragma once
// Which bytes make metric and label names in text format 0.0.4: metric names match
// [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*. The quoted UTF-8 names of
// newer formats are not part of 0.0.4 and are refused.

#include <string_view>

#include "src/scrape/text_cursor.hpp"

namespace runwarden {

inline bool is_label_name_start(char byte) {
  return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || byte == '_';
}

inline bool is_label_name_byte(char byte) {
  return is_label_name_start(byte) || (byte >= '0' && byte <= '9');
}

inline bool is_metric_name_start(char byte) { return is_label_name_start(byte) || byte == ':'; }

inline bool is_metric_name_byte(char byte) { return is_label_name_byte(byte) || byte == ':'; }

// The longest name at the cursor; empty when the byte there cannot start one.
std::string_view take_metric_name(text_cursor& cursor);
std::string_view take_label_name(text_cursor& cursor);

}  // namespace runwarden
