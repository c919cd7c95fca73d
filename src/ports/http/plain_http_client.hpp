#pragma once
// The HTTP port's way to the io thread: plain-HTTP requests of one port (one client of the
// instance: the metadata watcher, the metrics poller, ...) carried out by a Beast session on
// the io thread, one at a time in arrival order, on the port's own kept-alive connection.
// Any thread may submit; each answer goes to the actor that asked, with anon_send. The same
// bounded queue and the same one-answer-per-request contract as the libcurl worker
// (http_worker.hpp), without a thread: the io thread runs every port's requests at once,
// asynchronously, so a slow webhook never delays a metadata poll.

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"

namespace runwarden {

class plain_http_session;

class plain_http_client : public std::enable_shared_from_this<plain_http_client> {
 public:
  // Requests waiting behind the one in progress; a full queue refuses new ones at once.
  static constexpr std::size_t queue_length_max = 32;

  explicit plain_http_client(boost::asio::io_context& context);
  plain_http_client(const plain_http_client&) = delete;
  plain_http_client& operator=(const plain_http_client&) = delete;

  // False when the queue is full or the client stopped; the caller then answers itself.
  bool submit(http_request request, caf::actor reply_to);

  // Answers the request in progress and every queued one at once, with an error, and closes
  // the connection. Done on the io thread, which must still be running: stop the client
  // before the io thread. Safe to call twice.
  void stop();

 private:
  struct job {
    http_request request;
    caf::actor reply_to;
  };

  // On the io thread.
  void start_next();
  void answer(const job& done, http_response response);
  void end_all();

  boost::asio::io_context& context_;
  std::mutex mutex_;          // guards the two below, and orders submit's posts with stop's
  std::size_t accepted_ = 0;  // submitted and not yet answered
  bool stopping_ = false;
  // Only the io thread touches these.
  std::shared_ptr<plain_http_session> session_;
  std::deque<job> waiting_;
  bool busy_ = false;  // a request is in the session
};

}  // namespace runwarden
