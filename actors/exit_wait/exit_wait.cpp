// See exit_wait.hpp.
#include "actors/exit_wait/exit_wait.hpp"

namespace runwarden {

void exit_wait::wait() {
  for (; pending_ > 0; --pending_) waiter_->receive([](const caf::down_msg&) {});
}

}  // namespace runwarden
