// See scaling_decision_text.hpp.
#include "src/scaling/scaling_decision_text.hpp"

#include <fmt/format.h>

namespace runwarden {

namespace {

template <class... handlers>
struct overloaded : handlers... {
  using handlers::operator()...;
};

}  // namespace

std::string_view label_of(scaling_decision_kind kind) {
  switch (kind) {
    case scaling_decision_kind::scale_up:
      return "scale_up";
    case scaling_decision_kind::scale_in_self:
      return "scale_in_self";
    case scaling_decision_kind::protect:
      return "protect";
    case scaling_decision_kind::unprotect:
      return "unprotect";
    case scaling_decision_kind::hold:
      return "hold";
  }
  return "hold";
}

std::optional<scaling_decision_kind> kind_of(const scaling_decision& decision) {
  return std::visit(
      overloaded{
          [](const read_group_now&) -> std::optional<scaling_decision_kind> { return {}; },
          [](const scale_up&) -> std::optional<scaling_decision_kind> {
            return scaling_decision_kind::scale_up;
          },
          [](const scale_in_self&) -> std::optional<scaling_decision_kind> {
            return scaling_decision_kind::scale_in_self;
          },
          [](const protect_self& protect) -> std::optional<scaling_decision_kind> {
            return protect.protect ? scaling_decision_kind::protect
                                   : scaling_decision_kind::unprotect;
          },
          [](const hold_off&) -> std::optional<scaling_decision_kind> {
            return scaling_decision_kind::hold;
          },
          [](const scaling_note&) -> std::optional<scaling_decision_kind> { return {}; },
      },
      decision);
}

std::string to_string(const scaling_decision& decision) {
  return std::visit(
      overloaded{
          [](const read_group_now& read) { return fmt::format("read_group: {}", read.reason); },
          [](const scale_up& up) {
            return fmt::format("scale_up desired={}{}: {}", up.desired_capacity,
                               up.honor_cooldown ? " (honor cooldown)" : "", up.reason);
          },
          [](const scale_in_self& in) { return fmt::format("scale_in_self: {}", in.reason); },
          [](const protect_self& protect) {
            return fmt::format("{}: {}", protect.protect ? "protect" : "unprotect", protect.reason);
          },
          [](const hold_off& hold) { return fmt::format("hold: {}", hold.reason); },
          [](const scaling_note& note) { return note.text; },
      },
      decision);
}

}  // namespace runwarden
