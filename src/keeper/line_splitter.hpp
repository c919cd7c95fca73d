#pragma once
// Cuts a byte stream into lines in a buffer of fixed size, for the keeper, which allocates
// nothing per line: a line longer than the buffer is handed on in pieces of its size, and a
// carriage return before the newline is dropped (a runner on a pseudo-terminal writes them).

#include <array>
#include <cstddef>
#include <string_view>

#include "messages/keeper_protocol.hpp"

namespace runwarden {

class line_splitter {
public:
  // Feeds `bytes`; `emit(std::string_view line)` is called for each line completed.
  template <typename Emit>
  void feed(std::string_view bytes, Emit&& emit) {
    for (const char c : bytes) {
      if (c == '\n') {
        emit(take());
        continue;
      }
      line_[length_++] = c;
      if (length_ == line_.size()) emit(take());
    }
  }
  // The rest of a stream that ended without a newline.
  template <typename Emit>
  void finish(Emit&& emit) {
    if (length_ > 0) emit(take());
  }

private:
  std::string_view take() {
    std::size_t n = length_;
    if (n > 0 && line_[n - 1] == '\r') --n;
    length_ = 0;
    return {line_.data(), n};
  }
  std::array<char, keeper_protocol::line_bytes_max> line_{};
  std::size_t length_ = 0;
};

}  // namespace runwarden
