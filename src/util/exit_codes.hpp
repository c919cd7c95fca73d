#pragma once
// Exit codes of runwarden's own making (sysexits.h). Otherwise runwarden exits with the
// runner's code, as tini does: 128 + signal when the runner died of one, 127 when the
// command does not exist, 126 when it cannot run, and runner_end_unknown_exit_code (75,
// src/runner/exit_status.hpp) when an adopted runner ended unreadably.

namespace runwarden {

inline constexpr int exit_replay_differs = 1;  // replay --check: effects differ, as diff(1)
inline constexpr int exit_usage = 64;          // EX_USAGE: bad flags or arguments
inline constexpr int exit_data_error = 65;     // EX_DATAERR: not a journal, or a newer one
inline constexpr int exit_no_input = 66;       // EX_NOINPUT: no such input file
inline constexpr int exit_unavailable = 69;    // EX_UNAVAILABLE: cannot listen, no server
inline constexpr int exit_software = 70;       // EX_SOFTWARE: a supervisor of actors gave up,
                                               // or OpenSSL could not start
inline constexpr int exit_cant_create = 73;    // EX_CANTCREAT: the journal cannot be written
inline constexpr int exit_config = 78;         // EX_CONFIG: a bad config file or setting

}  // namespace runwarden
