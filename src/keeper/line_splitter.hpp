#pragma once
// Cuts a byte stream into lines in a buffer of fixed size, for the keeper, which allocates
// nothing per line: a line longer than the buffer is handed on in pieces of its size, and a
// carriage return before the newline is dropped (a runner on a pseudo-terminal writes them).
// A line the receiver cannot take yet stays, and the feed stops there (backpressure).

#include <array>
#include <cstddef>
#include <string_view>

#include "messages/keeper_protocol.hpp"

namespace runwarden {

class line_splitter {
 public:
  // Feeds `bytes`; `emit(std::string_view line)` is called for each line completed and
  // returns whether it took the line. Returns how many bytes were consumed: fewer than given
  // when emit refused a line, which is offered again, whole, at the next feed.
  template <typename Emit>
  std::size_t feed(std::string_view bytes, Emit&& emit) {
    std::size_t used = 0;
    for (; used < bytes.size(); ++used) {
      if (length_ == line_.size()) {  // a full line waits to be handed on
        if (!emit(line())) return used;
        length_ = 0;
      }
      const char c = bytes[used];
      if (c != '\n') {
        line_[length_++] = c;
        continue;
      }
      if (!emit(line())) return used;
      length_ = 0;
    }
    return used;
  }
  // The rest of a stream that ended without a newline.
  template <typename Emit>
  void finish(Emit&& emit) {
    if (length_ > 0) emit(line());
    length_ = 0;
  }

 private:
  std::string_view line() const {
    std::size_t n = length_;
    if (n > 0 && line_[n - 1] == '\r') --n;
    return {line_.data(), n};
  }
  std::array<char, keeper_protocol::line_bytes_max> line_{};
  std::size_t length_ = 0;
};

}  // namespace runwarden
