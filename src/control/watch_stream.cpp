// See watch_stream.hpp. Two sides share one outbox under one mutex: the subscriber actor
// (CAF threads) offers statuses, the reactor (gRPC threads) reports finished writes, a
// cancelled call and its end. gRPC never runs OnWriteDone or OnDone inside StartWrite or
// Finish (those reactions are dispatched, not inlined), so calling them under the mutex is
// safe, and the reactor pointer is cleared under the same mutex before the reactor dies.
#include "src/control/watch_stream.hpp"

#include <memory>
#include <mutex>
#include <optional>

#include "src/control/snapshot_wire.hpp"
#include "src/util/assert.hpp"

namespace runwarden {

namespace {

using status_writer = grpc::ServerWriteReactor<v1::StatusResponse>;

bool is_last(const v1::StatusResponse& response) { return response.state() == v1::STATE_GONE; }

class watch_outbox {
 public:
  explicit watch_outbox(status_writer* reactor) : reactor_(reactor) {}

  // From the subscriber: the newest status replaces any that still waits.
  void offer(v1::StatusResponse response) {
    std::lock_guard lock{mutex_};
    if (reactor_ == nullptr || finishing_ || (waiting_ && is_last(*waiting_))) return;
    waiting_ = std::move(response);
    if (!writing_) write_waiting();
  }

  // From the subscriber (the warden stopped) or the reactor (the call was cancelled).
  void end(grpc::Status status) {
    std::lock_guard lock{mutex_};
    if (reactor_ == nullptr || finishing_) return;
    waiting_.reset();
    finish_status_ = std::move(status);
    if (!writing_) finish();
  }

  void write_done(bool ok) {
    std::lock_guard lock{mutex_};
    writing_ = false;
    if (reactor_ == nullptr || finishing_) return;
    if (!ok && !finish_status_) finish_status_ = grpc::Status::CANCELLED;
    if (finish_status_) {
      finish();
    } else if (waiting_) {
      write_waiting();
    }
  }

  // The reactor is about to be deleted: nothing may touch it any more.
  void detach() {
    std::lock_guard lock{mutex_};
    reactor_ = nullptr;
  }

 private:
  void write_waiting() {
    RUNWARDEN_ASSERT(reactor_ != nullptr && waiting_ && !writing_ && !finishing_);
    in_flight_ = std::move(*waiting_);
    waiting_.reset();
    if (is_last(in_flight_)) {
      finishing_ = true;
      reactor_->StartWriteAndFinish(&in_flight_, grpc::WriteOptions{}, grpc::Status::OK);
      return;
    }
    writing_ = true;
    reactor_->StartWrite(&in_flight_);
  }

  void finish() {
    RUNWARDEN_ASSERT(reactor_ != nullptr && finish_status_ && !writing_ && !finishing_);
    finishing_ = true;
    reactor_->Finish(*finish_status_);
  }

  std::mutex mutex_;
  status_writer* reactor_;  // null once gRPC is done with the call
  v1::StatusResponse in_flight_;
  std::optional<v1::StatusResponse> waiting_;
  std::optional<grpc::Status> finish_status_;  // finish with this once no write is in flight
  bool writing_ = false;
  bool finishing_ = false;
};

// One Watch call's subscriber: the warden's status, and (unsubscribe_atom) from the reactor
// when the call is done.
using watch_subscriber_actor = status_subscriber_actor::extend<caf::reacts_to<unsubscribe_atom>>;

// Subscribes on start; tells the warden it is leaving before it ends. CAF 0.17 does not
// undo a monitor when the monitoring actor ends: the warden would keep the attachable, and
// through its weak reference the whole dead actor's memory (about 1.3 KB a stream, issue
// 31), until the warden itself ends. So every way out but the warden's own end demonitors.
watch_subscriber_actor::behavior_type watch_subscriber(
    watch_subscriber_actor::pointer self, warden_actor warden,
    std::shared_ptr<wall_clock_anchor> wall_clock, std::shared_ptr<watch_outbox> outbox) {
  const auto quit_alive = [=] {
    self->demonitor(warden.address());
    self->quit();
  };
  const auto leave = [=] {
    self->send(warden, unsubscribe_atom::value, status_subscriber_actor{self});
    quit_alive();
  };
  self->monitor(warden);
  self->set_down_handler([=](const caf::down_msg&) {
    outbox->end(grpc::Status{grpc::StatusCode::UNAVAILABLE, "runwarden's warden stopped"});
    self->quit();
  });
  self->send(warden, subscribe_atom::value, status_subscriber_actor{self});
  return {
      [=](const warden_snapshot& snapshot) {
        outbox->offer(status_response_of(snapshot, wall_clock->wall_time_of(snapshot.now)));
        if (snapshot.status == warden_status::gone) leave();
      },
      [=](unsubscribe_atom) { leave(); },
      [=](refused_atom) {
        outbox->end(grpc::Status{grpc::StatusCode::RESOURCE_EXHAUSTED,
                                 "runwarden's warden has too many status subscribers"});
        quit_alive();
      },
  };
}

class watch_reactor final : public status_writer {
 public:
  explicit watch_reactor(const control_context& context)
      : watches_(context.watches),
        outbox_(std::make_shared<watch_outbox>(this)),
        subscriber_(
            context.system.spawn(watch_subscriber, context.warden, context.wall_clock, outbox_)) {}

  void OnWriteDone(bool ok) override { outbox_->write_done(ok); }

  void OnCancel() override {
    outbox_->end(grpc::Status{grpc::StatusCode::CANCELLED, "the client went away"});
  }

  void OnDone() override {
    outbox_->detach();
    caf::anon_send(subscriber_, unsubscribe_atom::value);
    watches_->closed();
    delete this;
  }

 private:
  std::shared_ptr<open_watches> watches_;
  std::shared_ptr<watch_outbox> outbox_;
  watch_subscriber_actor subscriber_;
};

class refused_reactor final : public status_writer {
 public:
  explicit refused_reactor(grpc::Status status) { Finish(std::move(status)); }
  void OnDone() override { delete this; }
};

}  // namespace

// The stream is counted before its subscriber exists, so that a refused call costs nothing.
status_writer* start_watch(const control_context& context) {
  if (!context.watches->try_open())
    return refuse_watch({grpc::StatusCode::RESOURCE_EXHAUSTED,
                         "too many Watch streams open (" + std::to_string(watch_streams_max) +
                             "); try again once one ends"});
  return new watch_reactor{context};
}

status_writer* refuse_watch(grpc::Status status) { return new refused_reactor{std::move(status)}; }

}  // namespace runwarden
