#pragma once
// What a keeper carries across its own re-execution (SIGUSR2, an upgrade): the runner's pid
// and its output pipes (left open across exec), the runner's last end, and the signals no
// warden has taken yet. It travels in one environment variable of the new image, which reads
// and removes it at start; nothing else reaches a re-executed keeper.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "messages/keeper_protocol.hpp"

namespace runwarden::keeper_resume {

inline constexpr const char* variable = "RUNWARDEN_KEEPER_RESUME";

// The signals received and not yet acknowledged by a warden, in their order.
class signals {
 public:
  struct item {
    std::uint64_t sequence = 0;
    int number = 0;
  };
  static constexpr std::size_t count_max = 16;
  bool add(std::uint64_t sequence, int number);
  void remove(std::uint64_t sequence);
  std::span<const item> items() const { return {items_.data(), count_}; }

 private:
  std::array<item, count_max> items_{};
  std::size_t count_ = 0;
};

struct state {
  int runner = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  keeper_protocol::runner_report last{};
  signals pending{};
  std::uint64_t next_sequence = 1;
  bool json_log = false;
};

// Sets the variable for the exec that follows.
void to_environment(const state& carried);
// The state a former image left, and removes the variable; nullopt when none (or unreadable).
std::optional<state> from_environment();
void clear_environment();

}  // namespace runwarden::keeper_resume
