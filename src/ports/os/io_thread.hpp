#pragma once
// The one Boost.Asio thread that owns runwarden's file descriptors and OS signals.
// Actors never block on I/O; they post work here, and the work reports back
// with anon_send.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <thread>

namespace runwarden {

class io_thread {
 public:
  io_thread()
      : work_(boost::asio::make_work_guard(context_)), thread_([this] { context_.run(); }) {}
  io_thread(const io_thread&) = delete;
  io_thread& operator=(const io_thread&) = delete;
  ~io_thread() { stop(); }

  boost::asio::io_context& context() { return context_; }

  // Runs what was posted before (the ports' own stop requests), then ends the thread.
  // Safe to call twice.
  void stop() {
    if (!thread_.joinable()) return;
    work_.reset();
    boost::asio::post(context_, [this] { context_.stop(); });
    thread_.join();
  }

 private:
  boost::asio::io_context context_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
};

}  // namespace runwarden
