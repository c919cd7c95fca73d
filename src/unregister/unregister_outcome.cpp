// See unregister_outcome.hpp.
#include "src/unregister/unregister_outcome.hpp"

namespace runwarden {

std::string_view to_string(outcome_kind kind) {
  switch (kind) {
    case outcome_kind::unregistered:
      return "unregistered";
    case outcome_kind::already_gone:
      return "already_gone";
    case outcome_kind::transient:
      return "transient";
    case outcome_kind::busy:
      return "busy";
    case outcome_kind::rate_limited:
      return "rate_limited";
    case outcome_kind::refused:
      return "refused";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

}  // namespace runwarden
