#pragma once
// The warden's end of its link to the keeper (src/keeper/keeper.hpp), on the io thread: the
// runner's host when a keeper is the runner's parent. It asks the keeper to spawn, release
// and signal the runner, hears how it ended (always with its real status: the keeper reaped
// it), logs the runner's lines the keeper relays, hands the signals the keeper received to
// the warden, and carries the warden's sd_notify lines to the keeper, which speaks to
// systemd.
//
// A warden started again after a crash adopts the runner its journal names: the keeper says
// in its hello whether that runner still runs or how it ended. A pid that is not the
// keeper's runner ended, for this warden, with its status unknown; nothing signals it.

#include <array>
#include <boost/asio/generic/seq_packet_protocol.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "messages/keeper_protocol.hpp"
#include "messages/warden_messages.hpp"
#include "src/ports/os/child_process_host.hpp"
#include "src/ports/os/runner_host.hpp"

namespace runwarden {

class keeper_link : public runner_host, public std::enable_shared_from_this<keeper_link> {
 public:
  // The link's descriptor and the warden's watchdog interval, as the keeper put them in this
  // process's environment; nullopt when no keeper started it.
  struct from_keeper {
    int fd = -1;
    std::chrono::microseconds watchdog_interval{0};
  };
  static std::optional<from_keeper> environment();

  keeper_link(boost::asio::io_context& context, from_keeper keeper, runner_command command,
              bool json_log);

  void start() override;
  void spawn(caf::actor notify) override;
  void release(std::int64_t pid, bool go) override;
  void signal_group(std::int64_t pid, int signal_number, caf::actor notify) override;
  // The keeper is the runner's parent and knows its child: the identity is not needed.
  void adopt(std::int64_t pid, const process_identity& identity, caf::actor notify) override;
  void stop() override;

  // From now on the signals the keeper received go to `warden` (until then they wait).
  void forward_signals_to(os_signal_listener_actor warden);
  // One sd_notify datagram for the keeper to hand on ("READY=1\nSTATUS=...").
  void notify(std::string text);
  // The drain is over: says so to the keeper and returns once it was sent (at most a
  // second), so that the journal is retired only after the keeper knows.
  void tell_gone(int exit_code);
  std::chrono::microseconds watchdog_interval() const { return watchdog_interval_; }

 private:
  void send(std::string message);
  void send_next();
  void receive();
  void on_message(std::string_view message);
  void on_keeper_hello(std::string_view rest);
  void on_signal(std::string_view rest, bool resent);
  void hand_on(std::uint64_t sequence, int number, bool resent);
  void on_line(std::string_view rest);
  void resolve_adoption();
  void spawn_now();

  boost::asio::generic::seq_packet_protocol::socket socket_;
  std::chrono::microseconds watchdog_interval_;
  runner_command command_;
  bool json_log_;
  std::deque<std::string> outgoing_;
  std::array<char, keeper_protocol::message_bytes_max> incoming_{};
  boost::asio::socket_base::message_flags received_flags_ = 0;
  std::optional<keeper_protocol::runner_report> keeper_runner_;  // from its hello
  std::optional<std::int64_t> adopting_;  // a journal's pid, until the hello resolves it
  bool spawn_wanted_ = false;             // a spawn asked before the hello came
  bool keeper_runner_claimed_ = false;    // the hello's runner is adopted or taken over
  caf::actor notify_;                     // hears of spawns and ends
  caf::actor signal_notify_;              // hears of delivered signals
  std::optional<os_signal_listener_actor> warden_;
  struct held_signal {
    std::uint64_t sequence = 0;
    int number = 0;
    bool resent = false;
  };
  std::vector<held_signal> held_signals_;  // before forward_signals_to
  bool stopped_ = false;
};

}  // namespace runwarden
