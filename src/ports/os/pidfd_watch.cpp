// See pidfd_watch.hpp.
#include "src/ports/os/pidfd_watch.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace runwarden {

pidfd_watch::pidfd_watch(boost::asio::io_context& context, ended_handler ended)
    : context_(context), ended_(std::move(ended)) {}

pidfd_watch::~pidfd_watch() { forget_all(); }

bool pidfd_watch::watch(pid_t pid) {
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) return false;
  forget(pid);  // a watch of the same pid before is closed, its wait aborted
  auto watched = std::make_shared<boost::asio::posix::stream_descriptor>(context_, pidfd);
  watched_[pid] = watched;
  watched->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [this, pid, watched, alive = std::weak_ptr<char>{alive_}](
                          const boost::system::error_code& error) {
                        // Aborted: forgotten (possibly with this watch gone with it).
                        if (error == boost::asio::error::operation_aborted || !alive.lock()) return;
                        const auto found = watched_.find(pid);
                        if (found == watched_.end() || found->second != watched) return;
                        watched_.erase(found);
                        ended_(pid);
                      });
  return true;
}

void pidfd_watch::forget(pid_t pid) {
  const auto found = watched_.find(pid);
  if (found == watched_.end()) return;
  boost::system::error_code ignored;
  found->second->close(ignored);
  watched_.erase(found);
}

void pidfd_watch::forget_all() {
  for (auto& [pid, watched] : watched_) {
    boost::system::error_code ignored;
    watched->close(ignored);
  }
  watched_.clear();
}

}  // namespace runwarden
