#pragma once
// The line scanner under the exposition parser: a position in the page and the number of the
// line it is on. It walks the whole page in one pass without copying or splitting it into
// lines; the parser asks it for runs of bytes as string_views into the page. Only ' ' and '\t'
// count as blanks, as in the format's reference parser (a '\r' is an ordinary byte).

#include <cstddef>
#include <cstring>
#include <string_view>

namespace runwarden {

inline bool is_blank(char byte) { return byte == ' ' || byte == '\t'; }

class text_cursor {
 public:
  explicit text_cursor(std::string_view text)
      : position_{text.data()}, end_{text.data() + text.size()} {}

  bool at_end() const { return position_ == end_; }
  // Precondition: !at_end().
  char peek() const { return *position_; }
  void advance() { ++position_; }
  std::size_t line() const { return line_; }
  const char* position() const { return position_; }
  std::size_t left() const { return static_cast<std::size_t>(end_ - position_); }

  // Precondition: peek() == '\n'.
  void next_line() {
    ++position_;
    ++line_;
  }

  void skip_blanks() {
    while (position_ != end_ && is_blank(*position_)) ++position_;
  }

  // The bytes up to (not including) the first blank or newline, or up to the end.
  std::string_view take_token() {
    const char* start = position_;
    while (position_ != end_ && !is_blank(*position_) && *position_ != '\n') ++position_;
    return {start, static_cast<std::size_t>(position_ - start)};
  }

  // Moves onto the next '\n' of the page; false (and at the end) when there is none.
  bool skip_to_newline() {
    const void* newline = std::memchr(position_, '\n', left());
    position_ = newline == nullptr ? end_ : static_cast<const char*>(newline);
    return newline != nullptr;
  }

  // The bytes up to (not including) `length` further on; moves past them.
  std::string_view take(std::size_t length) {
    const char* start = position_;
    position_ += length;
    return {start, length};
  }

 private:
  const char* position_;
  const char* end_;
  std::size_t line_ = 1;
};

}  // namespace runwarden
