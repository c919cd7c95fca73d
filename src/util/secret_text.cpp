// See secret_text.hpp.
#include "src/util/secret_text.hpp"

#include <utility>

namespace runwarden {
namespace {

// Overwrites the whole buffer, the short-string area included, through volatile writes the
// optimiser may not drop as dead stores.
void wipe(std::string& text) {
  text.resize(text.capacity());
  volatile char* bytes = text.data();
  for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = '\0';
  text.clear();
}

}  // namespace

secret_text::secret_text(secret_text&& other) noexcept : secret_{std::move(other.secret_)} {
  wipe(other.secret_);
}

secret_text& secret_text::operator=(const secret_text& other) {
  if (this == &other) return *this;
  wipe(secret_);
  secret_ = other.secret_;
  return *this;
}

secret_text& secret_text::operator=(secret_text&& other) noexcept {
  if (this == &other) return *this;
  wipe(secret_);
  secret_ = std::move(other.secret_);
  wipe(other.secret_);
  return *this;
}

secret_text::~secret_text() { wipe(secret_); }

}  // namespace runwarden
