// See keeper_link.hpp.
#include "src/ports/os/keeper_link.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <future>

#include "src/logging/logging.hpp"
#include "src/util/assert.hpp"
#include "src/util/exit_codes.hpp"

namespace runwarden {

namespace protocol = keeper_protocol;

namespace {

std::optional<long long> number_in(const char* text) {
  if (text == nullptr) return std::nullopt;
  long long value = 0;
  const std::string_view view{text};
  const auto [next, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc{} || next != view.data() + view.size()) return std::nullopt;
  return value;
}

exit_status status_of(bool signaled, int code) { return exit_status{signaled, code}; }

}  // namespace

std::optional<keeper_link::from_keeper> keeper_link::environment() {
  const auto fd = number_in(std::getenv(protocol::link_variable));
  if (!fd || *fd < 0) return std::nullopt;
  const auto interval = number_in(std::getenv(protocol::watchdog_variable)).value_or(0);
  return from_keeper{static_cast<int>(*fd), std::chrono::microseconds(interval)};
}

keeper_link::keeper_link(boost::asio::io_context& context, from_keeper keeper,
                         runner_command command, bool json_log)
    : socket_(context, boost::asio::generic::seq_packet_protocol(AF_UNIX, 0), keeper.fd),
      watchdog_interval_(keeper.watchdog_interval),
      command_(std::move(command)),
      json_log_(json_log) {}

void keeper_link::start() {
  boost::asio::post(socket_.get_executor(), [self = shared_from_this()] {
    std::array<char, 64> hello{};
    self->send(std::string{hello.data(), protocol::encode_hello(hello, self->json_log_)});
    self->receive();
  });
}

void keeper_link::spawn(caf::actor notify) {
  boost::asio::post(socket_.get_executor(), [self = shared_from_this(), notify] {
    self->notify_ = notify;
    self->spawn_wanted_ = true;
    if (self->keeper_runner_) self->spawn_now();  // else once the keeper's hello is here
  });
}

void keeper_link::spawn_now() {
  spawn_wanted_ = false;
  using kind = protocol::runner_report::kind;
  if (keeper_runner_->state == kind::running && !keeper_runner_claimed_) {
    // The journal named no runner (lost, or damaged), yet the keeper keeps one: this warden
    // takes it over rather than start a second beside it.
    keeper_runner_claimed_ = true;
    warden_logger()->warn(
        "the keeper's runner (pid {}) still runs though the journal names "
        "none; watching it instead of starting another",
        keeper_runner_->pid);
    caf::anon_send(notify_, runner_spawned{keeper_runner_->pid});
    return;
  }
  std::string message = "spawn ";
  message += command_.output == output_mode::log ? "log " : "inherit ";
  for (std::size_t i = 0; i < command_.argv.size(); ++i) {
    if (i > 0) message += '\0';
    message += command_.argv[i];
  }
  if (message.size() > protocol::message_bytes_max) {
    caf::anon_send(notify_, runner_spawn_failed{E2BIG,
                                                "the runner's command line is longer "
                                                "than the keeper takes (16 KiB)"});
    return;
  }
  send(std::move(message));
}

void keeper_link::release(std::int64_t pid, bool go) {
  boost::asio::post(socket_.get_executor(), [self = shared_from_this(), pid, go] {
    std::array<char, 64> message{};
    self->send(std::string{message.data(),
                           protocol::encode_number_pair(message, "release", pid, go ? 1 : 0)});
  });
}

void keeper_link::signal_group(std::int64_t pid, int signal_number, caf::actor notify) {
  boost::asio::post(
      socket_.get_executor(), [self = shared_from_this(), pid, signal_number, notify] {
        self->signal_notify_ = notify;
        std::array<char, 64> message{};
        self->send(std::string{
            message.data(), protocol::encode_number_pair(message, "signal", pid, signal_number)});
      });
}

void keeper_link::adopt(std::int64_t pid, const process_identity&, caf::actor notify) {
  boost::asio::post(socket_.get_executor(), [self = shared_from_this(), pid, notify] {
    self->notify_ = notify;
    self->adopting_ = pid;
    if (self->keeper_runner_) self->resolve_adoption();
  });
}

void keeper_link::stop() {
  // The socket stays open until the process ends: the keeper reads its end as the warden's
  // exit, which it learns from the exit itself.
  boost::asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->stopped_ = true;
    boost::system::error_code ignored;
    self->socket_.cancel(ignored);
  });
}

void keeper_link::forward_signals_to(os_signal_listener_actor warden) {
  boost::asio::post(socket_.get_executor(), [self = shared_from_this(), warden] {
    self->warden_ = warden;
    const auto held = std::move(self->held_signals_);
    for (const auto& signal : held) self->hand_on(signal.sequence, signal.number, signal.resent);
  });
}

void keeper_link::notify(std::string text) {
  boost::asio::post(socket_.get_executor(), [self = shared_from_this(), text = std::move(text)] {
    self->send("notify " + text);
  });
}

void keeper_link::tell_gone(int exit_code) {
  auto told = std::make_shared<std::promise<void>>();
  auto done = told->get_future();
  boost::asio::post(socket_.get_executor(), [self = shared_from_this(), exit_code, told] {
    const auto message = "gone " + std::to_string(exit_code);
    boost::system::error_code error;  // a synchronous send: it waits while the link is full
    self->socket_.send(boost::asio::buffer(message), 0, error);
    told->set_value();
  });
  if (done.wait_for(std::chrono::seconds{1}) != std::future_status::ready)
    warden_logger()->warn("the keeper did not take the end of the drain within a second");
}

void keeper_link::send(std::string message) {
  RUNWARDEN_ASSERT(!message.empty() && message.size() <= protocol::message_bytes_max);
  outgoing_.push_back(std::move(message));
  if (outgoing_.size() == 1) send_next();
}

void keeper_link::send_next() {
  if (outgoing_.empty()) return;
  socket_.async_send(boost::asio::buffer(outgoing_.front()), 0,
                     [self = shared_from_this()](boost::system::error_code error, std::size_t) {
                       if (error == boost::asio::error::operation_aborted) return;
                       if (error)
                         warden_logger()->error("the link to the keeper broke: {}",
                                                error.message());
                       self->outgoing_.pop_front();
                       if (!error) self->send_next();
                     });
}

void keeper_link::receive() {
  socket_.async_receive(
      boost::asio::buffer(incoming_), received_flags_,
      [self = shared_from_this()](boost::system::error_code error, std::size_t n) {
        if (error == boost::asio::error::operation_aborted || self->stopped_) return;
        if (error || n == 0) {
          // Only the keeper's death closes its end, and with it the runner's pipes.
          // Nothing is left for this warden to speak for.
          warden_logger()->critical("the keeper is gone ({}); the runner went with it",
                                    error ? error.message() : "end of its link");
          spdlog::shutdown();
          ::_exit(exit_software);
        }
        self->on_message({self->incoming_.data(), n});
        self->receive();
      });
}

void keeper_link::on_message(std::string_view message) {
  const auto [kind, rest] = protocol::split(message);
  if (kind == "hello") {
    on_keeper_hello(rest);
  } else if (kind == "spawned") {
    if (const auto spawned = protocol::decode_number_pair(rest))
      caf::anon_send(notify_, runner_spawned{spawned->first});
  } else if (kind == "spawn_failed") {
    const auto space = rest.find(' ');
    int error = 0;
    std::from_chars(rest.data(), rest.data() + rest.size(), error);
    caf::anon_send(notify_, runner_spawn_failed{error, std::string{space == std::string_view::npos
                                                                       ? rest
                                                                       : rest.substr(space + 1)}});
  } else if (kind == "exited") {
    if (const auto exit = protocol::decode_exited(rest))
      caf::anon_send(notify_, runner_exited{exit->pid, status_of(exit->signaled, exit->code)});
  } else if (kind == "delivered") {
    if (const auto delivered = protocol::decode_number_pair(rest); delivered && signal_notify_)
      caf::anon_send(signal_notify_, runner_signal_delivered{delivered->first,
                                                             static_cast<int>(delivered->second)});
  } else if (kind == "signal" || kind == "resent") {
    on_signal(rest, kind == "resent");
  } else if (kind == "line") {
    on_line(rest);
  } else {
    warden_logger()->error("the keeper said something this warden does not know: \"{}\"", kind);
  }
}

void keeper_link::on_keeper_hello(std::string_view rest) {
  keeper_runner_ = protocol::decode_keeper_hello(rest);
  if (!keeper_runner_) {
    // A keeper of another version: this warden cannot speak for it. Exiting by a signal
    // lets the keeper start a warden again (the binary it runs may be replaced meanwhile).
    warden_logger()->critical("the keeper's hello is not version {}'s: \"{}\"", protocol::version,
                              std::string{rest});
    std::abort();
  }
  if (adopting_) resolve_adoption();
  if (spawn_wanted_) spawn_now();
}

void keeper_link::resolve_adoption() {
  const auto pid = *adopting_;
  adopting_.reset();
  const auto& runner = *keeper_runner_;
  keeper_runner_claimed_ = true;
  using kind = protocol::runner_report::kind;
  if (runner.pid == pid && runner.state == kind::running) {
    warden_logger()->info("the runner from before (pid {}) still runs; watching it", pid);
    return;  // its end comes as `exited`, as any runner's
  }
  if (runner.pid == pid && runner.state == kind::exited) {
    const auto status = status_of(runner.signaled, runner.code);
    warden_logger()->info("the runner from before (pid {}) ended meanwhile: {}", pid,
                          to_string(status));
    caf::anon_send(notify_, runner_exited{pid, status});
    return;
  }
  warden_logger()->warn(
      "the runner from before (pid {}) is not the keeper's; its exit status "
      "is unknown, and nothing signals it",
      pid);
  caf::anon_send(notify_, runner_exited{pid, exit_status{.unknown = true}});
}

void keeper_link::on_signal(std::string_view rest, bool resent) {
  const auto signal = protocol::decode_number_pair(rest);
  if (!signal) return;
  const auto sequence = static_cast<std::uint64_t>(signal->first);
  const int number = static_cast<int>(signal->second);
  if (!warden_) {
    held_signals_.push_back({sequence, number, resent});
    return;
  }
  hand_on(sequence, number, resent);
}

// The keeper forgets a signal (`got`) only once the warden has acted on it and journaled
// what it started: a warden killed in between leaves it to the next one, never lost.
void keeper_link::hand_on(std::uint64_t sequence, int number, bool resent) {
  const auto acknowledge = [self = shared_from_this(), sequence] {
    boost::asio::post(self->socket_.get_executor(),
                      [self, sequence] { self->send("got " + std::to_string(sequence)); });
  };
  caf::anon_send(*warden_, os_signal_received{number, acknowledge, resent});
}

void keeper_link::on_line(std::string_view rest) {
  const auto line = protocol::decode_line(rest);
  if (!line) return;
  if (line->dropped > 0)
    warden_logger()->warn(
        "{} lines of the runner's output were dropped while nobody could "
        "take them",
        line->dropped);
  runner_logger()->info("[{} {}] {}", line->stderr_stream ? "stderr" : "stdout", line->pid,
                        line->text);
}

}  // namespace runwarden
