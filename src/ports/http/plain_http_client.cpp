// See plain_http_client.hpp. submit() and stop() post under one lock, so the io thread sees
// every accepted request before the stop: stop answers each of them, and nothing posted
// after it is accepted.
#include "src/ports/http/plain_http_client.hpp"

#include <boost/asio/post.hpp>

#include "src/ports/http/plain_http_session.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

constexpr const char* stopped_before_text = "the HTTP port stopped before carrying out the request";
constexpr const char* stopped_during_text = "the HTTP port stopped during the request";

}  // namespace

plain_http_client::plain_http_client(boost::asio::io_context& context)
    : context_(context), session_(std::make_shared<plain_http_session>(context)) {}

bool plain_http_client::submit(http_request request, caf::actor reply_to) {
  RUNWARDEN_ASSERT(reply_to);
  const std::lock_guard lock{mutex_};
  if (stopping_ || accepted_ > queue_length_max) return false;
  ++accepted_;
  boost::asio::post(context_, [self = shared_from_this(),
                               next = job{std::move(request), std::move(reply_to)}]() mutable {
    self->waiting_.push_back(std::move(next));
    if (!self->busy_) self->start_next();
  });
  return true;
}

void plain_http_client::stop() {
  const std::lock_guard lock{mutex_};
  if (stopping_) return;
  stopping_ = true;
  boost::asio::post(context_, [self = shared_from_this()] { self->end_all(); });
}

void plain_http_client::start_next() {
  if (waiting_.empty()) return;
  busy_ = true;
  auto current = std::make_shared<job>(std::move(waiting_.front()));
  waiting_.pop_front();
  session_->perform(current->request, [self = shared_from_this(), current](http_response response) {
    self->busy_ = false;
    self->answer(*current, std::move(response));
    self->start_next();
  });
}

void plain_http_client::answer(const job& done, http_response response) {
  RUNWARDEN_ASSERT(response.id == done.request.id);
  caf::anon_send(done.reply_to, std::move(response));
  const std::lock_guard lock{mutex_};
  RUNWARDEN_ASSERT(accepted_ > 0);
  --accepted_;
}

void plain_http_client::end_all() {
  // The queue is emptied first: the session answers the request in progress from inside
  // abandon(), and that answer's handler must find nothing more to start.
  auto unserved = std::move(waiting_);
  waiting_.clear();
  session_->abandon(stopped_during_text);
  for (const auto& left : unserved)
    answer(left, http_response{.id = left.request.id, .transport_error = stopped_before_text});
}

}  // namespace runwarden
