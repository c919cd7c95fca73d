// Restart types spelled as config files and status output write them. The words are
// Erlang/OTP's, so that anyone who knows supervisor child specs reads them the same way.

#include "src/supervision/restart_type.hpp"

#include <array>

namespace runwarden {

namespace {

constexpr std::array restart_types{restart_type::permanent, restart_type::transient,
                                   restart_type::temporary};

}  // namespace

std::string_view to_string(restart_type type) {
  switch (type) {
    case restart_type::permanent:
      return "permanent";
    case restart_type::transient:
      return "transient";
    case restart_type::temporary:
      return "temporary";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

std::optional<restart_type> parse_restart_type(std::string_view text) {
  for (const restart_type type : restart_types) {
    if (to_string(type) == text) return type;
  }
  return std::nullopt;
}

}  // namespace runwarden
