// The drain table's shape (src/drain/drain_table.cpp), one letter per cell; what each cell
// does is checked by drain_table_test.cpp.
#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <string_view>

#include "src/drain/drain_table.hpp"

using namespace runwarden;

// The table's shape, pinned: a cell that changes what it promises (a no-op that starts to
// act, a handler made a no-op) is a deliberate change, made here too. One letter per cell,
// phases in machine_phase's order: `.` unchanged, `n` noted, `h` handled, `!` misuse.
TEST_CASE("the drain table keeps its shape") {
  const std::array<std::string_view, drain_event_kind_count> rows = {
      "h!!!!!!!",  // started
      "hhnnhnnn",  // spawned
      "hh..h...",  // spawn_failed
      "nnhnnhnn",  // exited
      "hhhhhhh.",  // shutdown
      "hhhhhhh.",  // forceful
      "nnhnnhnn",  // reload
      "hhhhhhhh",  // load
      "nnnnhhhh",  // unregistered
      "hhhhhhhn",  // hook_pending
      "nnnnnnhn",  // completed
      "nnnnhhhh",  // lookup_ended
      ".....h..",  // delivered
      "nnnnnnhn",  // no_client
      "nnhnnhnn",  // job_reported
      "...h....",  // backoff
      ".....h..",  // deadline
      ".....h..",  // kill_timeout
      "....hhh.",  // heartbeat
      "....hhh.",  // hook_expiry
      ".....h..",  // start_grace
      "....hhh.",  // last_attempt
      "....hhh.",  // unreg_alert
  };
  const char letter[] = {'.', 'n', 'h', '!'};
  for (std::size_t k = 0; k < drain_event_kind_count; ++k) {
    std::string row;
    for (std::size_t p = 0; p < machine_phase_count; ++p) {
      const auto& cell =
          drain_table_cell(static_cast<machine_phase>(p), static_cast<drain_event_kind>(k));
      row += letter[static_cast<std::size_t>(cell.outcome)];
    }
    INFO(to_string(static_cast<drain_event_kind>(k)));
    CHECK(row == rows[k]);
  }
}
