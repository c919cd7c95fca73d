#pragma once
// A secret held in memory (a runner token) so that it cannot be printed by accident: no
// conversion to a string, no stream or fmt output, no equality that a test framework would
// print on failure. Code that needs the bytes (an HTTP header, a token prefix check) asks for
// them by name with reveal(), which stands out in review. Moved-from and destroyed values
// are overwritten first, so a freed buffer holds no copy.

#include <string>
#include <string_view>

namespace runwarden {

class secret_text {
 public:
  secret_text() = default;
  explicit secret_text(std::string secret) : secret_{std::move(secret)} {}
  secret_text(const secret_text&) = default;
  secret_text& operator=(const secret_text& other);
  secret_text(secret_text&& other) noexcept;
  secret_text& operator=(secret_text&& other) noexcept;
  ~secret_text();

  std::string_view reveal() const { return secret_; }
  bool empty() const { return secret_.empty(); }
  std::size_t size() const { return secret_.size(); }

 private:
  std::string secret_;
};

}  // namespace runwarden
