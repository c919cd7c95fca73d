#pragma once
// What the keeper and the warden say to each other: one
// datagram per message on a SOCK_SEQPACKET socket pair, in text, so that `strace` shows it
// plainly. The first word names the message; numbers are decimal. Both sides encode into a
// buffer they own and decode in place, so the keeper allocates nothing per message.
//
// warden -> keeper                      keeper -> warden
//   hello VERSION text|json (its [log])   hello VERSION RUNNER   (RUNNER: see runner_report)
//   spawn log|inherit ARG\0ARG\0...       spawned PID | spawn_failed ERRNO TEXT
//   release PID 0|1                       exited PID SIGNALED CODE
//   signal PID SIGNO                      delivered PID SIGNO
//   notify TEXT  (sd_notify's lines)      signal SEQ SIGNO  (a signal the keeper received)
//                                         resent SEQ SIGNO  (one a warden before this one
//                                                 had and did not say it acted on)
//   got SEQ      (that signal is acted on line out|err PID DROPPED TEXT  (DROPPED: lines lost
//                 and journaled)               before this one, while nobody could take them)
//   gone CODE    (the drain is over and its journal retired: a warden that dies from now on
//                 is not started again; the keeper exits CODE)

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace runwarden::keeper_protocol {

inline constexpr int version = 1;
// A runner's line is cut at 16 KiB (as runwarden always did); the rest is the header.
inline constexpr std::size_t line_bytes_max = 16 * 1024;
inline constexpr std::size_t message_bytes_max = line_bytes_max + 256;
// The descriptor of the warden's end, named in its environment by the keeper.
inline constexpr const char* link_variable = "RUNWARDEN_KEEPER_FD";
// The interval within which the warden must say WATCHDOG=1, in microseconds.
inline constexpr const char* watchdog_variable = "RUNWARDEN_KEEPER_WATCHDOG_USEC";

// Where the runner stands, as the keeper tells a warden that says hello.
struct runner_report {
  enum class kind : std::uint8_t { none, running, exited } state = kind::none;
  std::int64_t pid = 0;
  bool signaled = false;  // exited: by a signal (code is its number) or with a code
  int code = 0;
};

struct exit_report {
  std::int64_t pid = 0;
  bool signaled = false;
  int code = 0;
};

// Encoders: each writes one message into `out` and returns its length, or 0 when it does not
// fit (a caller's bug: the buffers are message_bytes_max).
std::size_t encode_hello(std::span<char> out, bool json_log);
std::size_t encode_keeper_hello(std::span<char> out, const runner_report& runner);
std::size_t encode_exited(std::span<char> out, const exit_report& exit);
std::size_t encode_number_pair(std::span<char> out, std::string_view kind, std::int64_t first,
                               std::int64_t second);
std::size_t encode_text(std::span<char> out, std::string_view kind, std::string_view text);
std::size_t encode_line(std::span<char> out, bool stderr_stream, std::int64_t pid,
                        std::uint64_t dropped, std::string_view text);

// The first word of a message, and what follows it (without the separating space).
struct split_message {
  std::string_view kind;
  std::string_view rest;
};
split_message split(std::string_view message);

// Decoders of `rest`; nullopt when malformed.
struct warden_hello {
  int version = 0;
  bool json_log = false;
};
std::optional<warden_hello> decode_hello(std::string_view rest);
std::optional<runner_report> decode_keeper_hello(std::string_view rest);
std::optional<exit_report> decode_exited(std::string_view rest);
struct number_pair {
  std::int64_t first = 0;
  std::int64_t second = 0;
};
std::optional<number_pair> decode_number_pair(std::string_view rest);
struct line_report {
  bool stderr_stream = false;
  std::int64_t pid = 0;
  std::uint64_t dropped = 0;
  std::string_view text;
};
std::optional<line_report> decode_line(std::string_view rest);

}  // namespace runwarden::keeper_protocol
