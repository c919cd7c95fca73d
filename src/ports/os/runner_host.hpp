#pragma once
// Where the runner's process lives, as the process port sees it. Two kinds: the keeper's
// (keeper_link: `runwarden run` and `runwarden wrapper`, where a keeper process is the
// runner's parent and outlives the warden) and this process's own (child_process_host: an
// embedding host, which has no keeper). Results go to the actor that asked, as drain machine
// events; each call is thread-safe and posts to the io thread.

#include <cstdint>

#include "caf/actor.hpp"
#include "src/runner/process_identity.hpp"

namespace runwarden {

class runner_host {
 public:
  virtual ~runner_host() = default;
  // Call once, before the first spawn.
  virtual void start() = 0;
  virtual void spawn(caf::actor notify) = 0;
  // Lets the spawned runner `pid` run its command (go), or end without running it.
  virtual void release(std::int64_t pid, bool go) = 0;
  // Tells `notify` runner_signal_delivered once the signal was delivered.
  virtual void signal_group(std::int64_t pid, int signal_number, caf::actor notify) = 0;
  // Watches a runner started by an earlier warden (found in the journal, with the identity
  // its spawn recorded) until it ends.
  virtual void adopt(std::int64_t pid, const process_identity& identity, caf::actor notify) = 0;
  virtual void stop() = 0;
};

}  // namespace runwarden
