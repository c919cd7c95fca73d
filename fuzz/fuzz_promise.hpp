#pragma once
// What every fuzz target shares: a broken promise aborts, so that libFuzzer reports the
// input that broke it as a crash and saves it; and the input seen as text.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace runwarden::fuzz {

inline void require(bool promise) {
  if (!promise) std::abort();
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace runwarden::fuzz
