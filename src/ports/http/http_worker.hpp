#pragma once
// The HTTP port's one worker thread. libcurl's easy interface and name lookups block, so
// they run here, never on a CAF worker, one job
// at a time from a bounded queue. Each client (webhooks, metadata, metrics, APIs) gets a port
// of its own, so a slow webhook never delays a metadata poll. The thread starts with the
// first job: a port whose requests all go to the io thread (plain_http_client.hpp) never
// starts one. Each job's answer goes to the actor that asked, with anon_send. Every blocking
// call carries its own timeout, and a request in progress is abandoned on stop(), which is
// what bounds stop().

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <variant>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "src/ports/http/curl_transfer.hpp"
#include "src/ports/http/host_resolver.hpp"

namespace runwarden {

class http_worker {
 public:
  // Jobs waiting behind the one in progress; a full queue refuses new ones at once.
  static constexpr std::size_t queue_length_max = 32;

  http_worker();
  http_worker(const http_worker&) = delete;
  http_worker& operator=(const http_worker&) = delete;
  ~http_worker();

  // False when the queue is full or the worker stopped; the caller then answers itself.
  bool submit(host_lookup lookup, caf::actor reply_to);
  bool submit(http_request request, caf::actor reply_to);

  // Answers every queued job with an error, ends the request in progress (within about a
  // second; a name lookup within its own timeout) and joins the thread. Safe to call twice. Call it
  // before the actor system that the answers go to is destroyed.
  void stop();

 private:
  struct job {
    std::variant<host_lookup, http_request> work;
    caf::actor reply_to;
  };

  bool enqueue(job next);
  void run();
  void carry_out(const job& current);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<job> queue_;  // at most queue_length_max
  bool stopping_ = false;
  host_resolver resolver_;  // used on the worker thread only
  curl_session session_;    // likewise; one per port, so each port keeps its connections
  std::thread thread_;      // started by the first job, under the lock
};

}  // namespace runwarden
