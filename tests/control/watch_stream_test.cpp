// The Watch stream's own rules, which a real runner cannot exercise: many changes faster
// than a client reads, a client that goes away, a warden that stops. The real warden_service
// runs on an in-process gRPC server (real gRPC and CAF threads, no socket) against a fake
// warden that publishes snapshots on command and counts its subscribers, so each test can
// check what the subscriber actor did (subscribed, unsubscribed) as well as what the client
// read. Every wait is bounded.

#include <grpcpp/create_channel.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "caf/all.hpp"
#include "src/control/warden_service.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

using publish_atom = caf::atom_constant<caf::atom("publish")>;
using count_atom = caf::atom_constant<caf::atom("count")>;

constexpr auto wait_max = 10s;
constexpr std::uint64_t published_max = 500;

// A reason this long makes each status big enough that writing it takes some time.
constexpr std::size_t reason_bytes = 512;

warden_snapshot snapshot_of_version(std::uint64_t version, warden_status status,
                                    const std::string& reason) {
  warden_snapshot snapshot;
  snapshot.version = version;
  snapshot.status = status;
  snapshot.reason = reason;
  return snapshot;
}

struct fake_warden_state {
  std::string reason;
  std::vector<status_subscriber_actor> subscribers;
  std::uint64_t unsubscribed = 0;
};

// Publishes `count` running snapshots, then (if asked) gone, to every subscriber, all with
// the drain reason it was spawned with.
caf::behavior fake_warden(caf::stateful_actor<fake_warden_state>* self, std::string reason) {
  self->state.reason = std::move(reason);
  return {
      [=](subscribe_atom, const status_subscriber_actor& subscriber) {
        self->state.subscribers.push_back(subscriber);
        self->send(subscriber, snapshot_of_version(1, warden_status::running, self->state.reason));
      },
      [=](unsubscribe_atom, const status_subscriber_actor& subscriber) {
        auto& subscribers = self->state.subscribers;
        subscribers.erase(std::remove(subscribers.begin(), subscribers.end(), subscriber),
                          subscribers.end());
        ++self->state.unsubscribed;
      },
      [=](publish_atom, std::uint64_t count, bool then_gone) {
        for (std::uint64_t version = 2; version < count + 2; ++version)
          for (const auto& subscriber : self->state.subscribers)
            self->send(subscriber,
                       snapshot_of_version(version, warden_status::running, self->state.reason));
        if (!then_gone) return;
        for (const auto& subscriber : self->state.subscribers)
          self->send(subscriber,
                     snapshot_of_version(count + 2, warden_status::gone, self->state.reason));
      },
      [=](count_atom) {
        return std::make_tuple(static_cast<std::uint64_t>(self->state.subscribers.size()),
                               self->state.unsubscribed);
      },
  };
}

class watch_fixture {
 public:
  watch_fixture()
      : system_(config_),
        warden_(system_.spawn(fake_warden, std::string(reason_bytes, 'r'))),
        // Untyped, to be told what a warden never is (publish, count): the Watch service
        // sees only the warden's interface.
        context_{system_,
                 caf::actor_cast<warden_actor>(warden_),
                 std::nullopt,
                 true,
                 false,
                 std::make_shared<wall_clock_anchor>(),
                 std::make_shared<open_watches>(),
                 nullptr},
        service_(context_) {
    grpc::ServerBuilder builder;
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    stub_ = v1::Warden::NewStub(server_->InProcessChannel(grpc::ChannelArguments{}));
  }

  ~watch_fixture() {
    server_->Shutdown(std::chrono::system_clock::now() + 1s);
    caf::anon_send_exit(warden_, caf::exit_reason::kill);
  }

  v1::Warden::Stub& stub() { return *stub_; }
  // True once every Watch call has ended and the linger after the last one has passed.
  bool watches_settled() { return context_.watches->wait_settled(wait_max); }
  const caf::actor& warden() const { return warden_; }

  // (subscribers now, unsubscribe messages so far), as the fake warden counts them.
  std::pair<std::uint64_t, std::uint64_t> counts() {
    caf::scoped_actor self{system_};
    std::pair<std::uint64_t, std::uint64_t> result{~0ULL, ~0ULL};
    self->request(warden_, caf::infinite, count_atom::value)
        .receive(
            [&](std::uint64_t subscribers, std::uint64_t unsubscribed) {
              result = {subscribers, unsubscribed};
            },
            [](caf::error&) {});
    return result;
  }

  bool eventually_subscribers(std::uint64_t expected) {
    const auto deadline = std::chrono::steady_clock::now() + wait_max;
    while (counts().first != expected) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(5ms);
    }
    return true;
  }

 private:
  caf::actor_system_config config_;
  caf::actor_system system_;
  caf::actor warden_;
  control_context context_;
  warden_service service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Warden::Stub> stub_;
};

std::unique_ptr<grpc::ClientContext> bounded_context() {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + wait_max);
  return context;
}

}  // namespace

TEST_CASE("a slow reader gets statuses in order, newest last, and the stream ends after gone",
          "[control][watch]") {
  watch_fixture fixture;
  auto context = bounded_context();
  auto reader = fixture.stub().Watch(context.get(), v1::WatchRequest{});
  v1::StatusResponse response;
  REQUIRE(reader->Read(&response));
  CHECK(response.version() == 1);
  REQUIRE(fixture.eventually_subscribers(1));
  caf::anon_send(fixture.warden(), publish_atom::value, published_max, true);
  std::this_thread::sleep_for(200ms);  // the client reads nothing meanwhile
  std::vector<std::uint64_t> versions;
  while (reader->Read(&response)) versions.push_back(response.version());
  CHECK(reader->Finish().ok());
  REQUIRE_FALSE(versions.empty());
  CHECK(std::is_sorted(versions.begin(), versions.end()));
  CHECK(std::adjacent_find(versions.begin(), versions.end()) == versions.end());
  CHECK(versions.back() == published_max + 2);
  CHECK(response.state() == v1::STATE_GONE);
  // Statuses that waited while a write was in flight were replaced, not queued.
  CHECK(versions.size() < published_max / 2);
  CHECK(fixture.eventually_subscribers(0));
  CHECK(fixture.watches_settled());
}

TEST_CASE("a client that goes away unsubscribes its subscriber", "[control][watch]") {
  watch_fixture fixture;
  auto context = bounded_context();
  auto reader = fixture.stub().Watch(context.get(), v1::WatchRequest{});
  v1::StatusResponse response;
  REQUIRE(reader->Read(&response));
  REQUIRE(fixture.eventually_subscribers(1));
  context->TryCancel();
  while (reader->Read(&response)) {
  }
  CHECK(reader->Finish().error_code() == grpc::StatusCode::CANCELLED);
  CHECK(fixture.eventually_subscribers(0));
  CHECK(fixture.counts().second == 1);
  CHECK(fixture.watches_settled());
}

TEST_CASE("the stream ends UNAVAILABLE when the warden stops", "[control][watch]") {
  watch_fixture fixture;
  auto context = bounded_context();
  auto reader = fixture.stub().Watch(context.get(), v1::WatchRequest{});
  v1::StatusResponse response;
  REQUIRE(reader->Read(&response));
  REQUIRE(fixture.eventually_subscribers(1));
  caf::anon_send_exit(fixture.warden(), caf::exit_reason::kill);
  while (reader->Read(&response)) {
  }
  CHECK(reader->Finish().error_code() == grpc::StatusCode::UNAVAILABLE);
}
