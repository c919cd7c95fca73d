#pragma once
// Signal names as users write them in config and flags ("SIGQUIT", "QUIT", "3").

#include <optional>
#include <string>
#include <string_view>

namespace runwarden {

std::optional<int> parse_signal_name(std::string_view text);
std::string signal_name(int signal_number);

}  // namespace runwarden
