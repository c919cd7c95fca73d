#pragma once
// A secret held in memory (an AWS secret access key, a session token). It has no stream
// operator, no fmt formatter and no conversion to a string, so a log line or an error message
// that tries to print one does not compile; the one way to the bytes is reveal(), called
// where the secret is used (a signature, a request header) and easy to audit with grep.

#include <string>
#include <string_view>
#include <utility>

namespace runwarden {

class secret_text {
 public:
  secret_text() = default;
  explicit secret_text(std::string value) : value_{std::move(value)} {}

  std::string_view reveal() const { return value_; }

 private:
  std::string value_;
};

}  // namespace runwarden
