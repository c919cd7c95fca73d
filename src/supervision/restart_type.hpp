#pragma once
// Whether something that ended is started again, in Erlang/OTP's words: a permanent child
// always comes back, a transient one only after an abnormal exit, a temporary one never.
// The runner's restart policy and the supervisor of runwarden's own actors share them.

#include <cstdint>
#include <optional>
#include <string_view>

namespace runwarden {

enum class restart_type : std::uint8_t { permanent, transient, temporary };

std::string_view to_string(restart_type type);
std::optional<restart_type> parse_restart_type(std::string_view text);

}  // namespace runwarden
