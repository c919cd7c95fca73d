// See supervisor_spec.hpp. Every spec is checked before a supervisor starts, with one
// named error per bad field, as OTP's check_childspec does.
#include "src/supervision/supervisor_spec.hpp"

#include <algorithm>

namespace runwarden {

std::string_view to_string(restart_strategy strategy) {
  switch (strategy) {
    case restart_strategy::one_for_one:
      return "one_for_one";
    case restart_strategy::one_for_all:
      return "one_for_all";
    case restart_strategy::rest_for_one:
      return "rest_for_one";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

std::optional<std::string> check_supervisor_spec(const supervisor_flags& flags,
                                                 const std::vector<child_spec>& children) {
  if (flags.restart_window <= duration::zero()) return "supervisor restart_window must be positive";
  if (children.size() > supervised_children_max)
    return "a supervisor takes at most " + std::to_string(supervised_children_max) +
           " children, got " + std::to_string(children.size());
  for (auto it = children.begin(); it != children.end(); ++it) {
    const auto position = std::to_string(it - children.begin() + 1);
    if (it->id.empty()) return "child " + position + " has an empty id";
    if (std::find_if(children.begin(), it,
                     [&](const child_spec& earlier) { return earlier.id == it->id; }) != it)
      return "child " + position + ": id \"" + it->id + "\" is used twice";
    if (it->shutdown_timeout < duration::zero())
      return "child \"" + it->id + "\": shutdown_timeout must not be negative";
  }
  return std::nullopt;
}

}  // namespace runwarden
