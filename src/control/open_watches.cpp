// See open_watches.hpp.
#include "src/control/open_watches.hpp"

#include <algorithm>
#include <thread>

#include "src/util/assert.hpp"

namespace runwarden {

bool open_watches::try_open() {
  std::lock_guard lock{mutex_};
  if (open_ >= watch_streams_max) return false;
  ++open_;
  return true;
}

void open_watches::closed() {
  {
    std::lock_guard lock{mutex_};
    RUNWARDEN_ASSERT(open_ > 0);
    --open_;
    last_closed_ = clock::now();
  }
  changed_.notify_all();
}

bool open_watches::wait_settled(std::chrono::milliseconds timeout) {
  const auto deadline = clock::now() + timeout;
  std::unique_lock lock{mutex_};
  if (!changed_.wait_until(lock, deadline, [&] { return open_ == 0; })) return false;
  if (!last_closed_) return true;
  const auto settled_at = std::min(*last_closed_ + close_linger, deadline);
  lock.unlock();
  std::this_thread::sleep_until(settled_at);
  return true;
}

}  // namespace runwarden
