// See exposition_names.hpp.
#include "src/scrape/exposition_names.hpp"

namespace runwarden {
namespace {

template <typename Start, typename Byte>
std::string_view take_name(text_cursor& cursor, Start is_start, Byte is_byte) {
  std::size_t length = 0;
  const char* start = cursor.position();
  const std::size_t left = cursor.left();
  if (left == 0 || !is_start(start[0])) return {};
  while (length < left && is_byte(start[length])) ++length;
  return cursor.take(length);
}

}  // namespace

std::string_view take_metric_name(text_cursor& cursor) {
  return take_name(cursor, is_metric_name_start, is_metric_name_byte);
}

std::string_view take_label_name(text_cursor& cursor) {
  return take_name(cursor, is_label_name_start, is_label_name_byte);
}

}  // namespace runwarden
