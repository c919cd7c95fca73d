// See process_environment.hpp.
#include "src/util/process_environment.hpp"

#include <string_view>

extern char** environ;

namespace runwarden {

environment_map process_environment() {
  environment_map variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text{*entry};
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    variables.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return variables;
}

}  // namespace runwarden
