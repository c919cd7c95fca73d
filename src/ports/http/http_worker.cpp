// See http_worker.hpp. The lock only guards the queue and the stop flag; the blocking work
// runs unlocked, so submit() never waits for a transfer.
#include "src/ports/http/http_worker.hpp"

#include "src/ports/http/curl_transfer.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

constexpr const char* stopped_text = "the HTTP port stopped before carrying out the request";

void answer_stopped(const host_lookup& lookup, const caf::actor& reply_to) {
  caf::anon_send(reply_to, host_lookup_result{lookup.id, {}, stopped_text});
}

void answer_stopped(const http_request& request, const caf::actor& reply_to) {
  caf::anon_send(reply_to, http_response{.id = request.id, .transport_error = stopped_text});
}

}  // namespace

http_worker::http_worker() = default;

http_worker::~http_worker() { stop(); }

bool http_worker::submit(host_lookup lookup, caf::actor reply_to) {
  return enqueue(job{std::move(lookup), std::move(reply_to)});
}

bool http_worker::submit(http_request request, caf::actor reply_to) {
  return enqueue(job{std::move(request), std::move(reply_to)});
}

bool http_worker::enqueue(job next) {
  {
    const std::lock_guard lock{mutex_};
    if (stopping_ || queue_.size() >= queue_length_max) return false;
    queue_.push_back(std::move(next));
    if (!thread_.joinable()) thread_ = std::thread{[this] { run(); }};
  }
  wake_.notify_one();
  return true;
}

void http_worker::stop() {
  std::deque<job> unserved;
  {
    const std::lock_guard lock{mutex_};
    stopping_ = true;
    unserved.swap(queue_);
  }
  wake_.notify_one();
  session_.abandon();  // a request in progress ends within a second, not at its timeout
  for (const auto& left : unserved)
    std::visit([&](const auto& work) { answer_stopped(work, left.reply_to); }, left.work);
  if (thread_.joinable()) thread_.join();
}

void http_worker::run() {
  for (;;) {
    job current;
    {
      std::unique_lock lock{mutex_};
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      current = std::move(queue_.front());
      queue_.pop_front();
    }
    carry_out(current);
  }
}

void http_worker::carry_out(const job& current) {
  RUNWARDEN_ASSERT(current.reply_to);
  if (const auto* lookup = std::get_if<host_lookup>(&current.work)) {
    auto resolved = resolver_.resolve(lookup->host, lookup->timeout);
    caf::anon_send(current.reply_to, host_lookup_result{lookup->id, std::move(resolved.addresses),
                                                        std::move(resolved.error)});
  } else {
    caf::anon_send(current.reply_to, session_.perform(std::get<http_request>(current.work)));
  }
}

}  // namespace runwarden
