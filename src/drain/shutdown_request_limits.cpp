// See shutdown_request_limits.hpp.
#include "src/drain/shutdown_request_limits.hpp"

#include <algorithm>

namespace runwarden {

std::optional<std::string> reason_problem(std::string_view reason) {
  if (reason.size() > reason_bytes_max)
    return "reason is longer than " + std::to_string(reason_bytes_max) + " bytes";
  const bool clean = std::all_of(reason.begin(), reason.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f;
  });
  if (!clean) return "reason holds a line break or control character";
  return std::nullopt;
}

std::string deadline_out_of_bounds_text(bool negative) {
  if (negative) return "deadline must not be negative";
  return "deadline is longer than " +
         std::to_string(std::chrono::seconds{shutdown_deadline_max}.count()) + " seconds (30 days)";
}

}  // namespace runwarden
