#pragma once
// The unregistrar's vocabulary and typed interfaces: what it tells its listener (the
// warden's unregistration step) about each runner (unregistrar_listener_actor), and what it
// may be asked (unregistrar_actor). The unregistrar starts on spawn and needs no message to
// begin. Texts name runners by label and quote servers only in short sanitized excerpts; they
// never contain a token. The messages stay in the process, so they are allowed as unsafe
// local types like the other local vocabularies.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caf/all.hpp"

namespace runwarden {

using unregister_retry_atom = caf::atom_constant<caf::atom("unregretry")>;

enum class unregister_state : std::uint8_t {
  pending,   // not yet answered
  retrying,  // the last attempt failed; another follows after a wait
  done,      // not registered any more (see `how`)
  failed,    // only with a configured attempts_max: given up, still registered
};

enum class unregister_how : std::uint8_t {
  not_yet,       // pending, retrying, failed
  unregistered,  // the server removed it on our request
  already_gone,  // the server no longer knew it (removed earlier, or its token revoked)
};

inline std::string_view to_string(unregister_state state) {
  switch (state) {
    case unregister_state::pending:
      return "pending";
    case unregister_state::retrying:
      return "retrying";
    case unregister_state::done:
      return "done";
    case unregister_state::failed:
      return "failed";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

inline std::string_view to_string(unregister_how how) {
  switch (how) {
    case unregister_how::not_yet:
      return "not_yet";
    case unregister_how::unregistered:
      return "unregistered";
    case unregister_how::already_gone:
      return "already_gone";
  }
  return "unknown";  // Only a value cast from outside the enum gets here.
}

struct runner_unregister_status {
  std::string runner;  // label_of(target): "gitlab runner "x" at https://..."
  unregister_state state = unregister_state::pending;
  unregister_how how = unregister_how::not_yet;
  std::uint32_t attempts = 0;  // attempts finished so far
  std::string detail;          // the last outcome and what follows; empty while pending
  std::optional<std::chrono::nanoseconds> next_attempt_in = std::nullopt;  // while retrying
};

struct unregister_finished {
  std::vector<runner_unregister_status> runners;  // each done or failed, in config order
};

// What the unregistrar's peers may send it:
//   (unregister_retry_atom, runner index)  try that runner now if it waits to retry (one
//                                          with a request in flight is left alone); the
//                                          unregistrar also sends it itself when a wait ends
using unregistrar_actor = caf::typed_actor<caf::reacts_to<unregister_retry_atom, std::uint64_t>>;

// The unregistrar's listener receives, in order,
//   runner_unregister_status   once per runner as `pending`, then on every change
//                              (`retrying` after each failed attempt, finally `done` or
//                              `failed`)
//   unregister_finished        once, when every runner is done or failed; the unregistrar
//                              then exits normally
using unregistrar_listener_actor =
    caf::typed_actor<caf::reacts_to<runner_unregister_status>, caf::reacts_to<unregister_finished>>;

}  // namespace runwarden

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::runner_unregister_status)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(runwarden::unregister_finished)
