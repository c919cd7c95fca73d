#pragma once
// Learns of the end of given processes through pidfds (pidfd_open, Linux 5.3), polled on an
// io_context, without SIGCHLD. An embedding host owns its process's SIGCHLD disposition: a
// handler it installs after runwarden started would take the signal away from asio's, and
// runwarden would never hear its runner end. A pidfd turns readable when its process ends,
// whoever handles SIGCHLD. The watch only tells; reaping stays with the caller.

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <map>
#include <memory>

namespace runwarden {

class pidfd_watch {
 public:
  using ended_handler = std::function<void(pid_t)>;

  // `ended` runs on the io_context's thread, once per watched process that ended.
  pidfd_watch(boost::asio::io_context& context, ended_handler ended);
  pidfd_watch(const pidfd_watch&) = delete;
  pidfd_watch& operator=(const pidfd_watch&) = delete;
  ~pidfd_watch();

  // False when no pidfd could be opened: the process is gone and reaped already (ESRCH).
  // Call on the io_context's thread, as every member.
  bool watch(pid_t pid);
  void forget(pid_t pid);
  void forget_all();

 private:
  boost::asio::io_context& context_;
  ended_handler ended_;
  std::map<pid_t, std::shared_ptr<boost::asio::posix::stream_descriptor>> watched_;
  // A wait that completed before this watch went finds it gone through this token.
  std::shared_ptr<char> alive_ = std::make_shared<char>();
};

}  // namespace runwarden
