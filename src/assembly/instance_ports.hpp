#pragma once
// The side effects of one runwarden instance, as its host provides them: the runner's
// process, HTTP, the journal, the wall clock, and who hears the warden's exit. The daemon
// gives the real ones (a child process on the io thread, libcurl workers, the journal file);
// the simulation gives the fleet world's; an embedding host may give its own. The host owns
// them: the instance never stops a port it was given.

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "actors/warden/warden_actor.hpp"
#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

struct instance_ports {
  process_port_actor process;
  // An HTTP port for one more worker. Called once per worker that makes requests, in start
  // order, so a host may give each its own (a slow CI server then never delays a scrape).
  std::function<http_port_actor()> http;
  // Receives warden_exited at gone, then runwarden's own signals (warden_wiring).
  warden_exit_listener_actor exit_listener;
  effect_observer observer = {};
  // Sees every snapshot the warden publishes (metrics: changes without effects).
  std::function<void(const warden_snapshot&)> snapshot_observer = {};
  journal_sink journal = {};
  std::vector<journal_entry> recovered = {};
  // Read for wall-clock deadlines (a spot notice) and dates on the wire (rate-limit resets,
  // webhook timestamps, SigV4); the simulation gives its virtual one.
  std::function<std::chrono::system_clock::time_point()> wall_clock = [] {
    return std::chrono::system_clock::now();
  };
  // How long the machine has been up, for the uptime recycling bound (warden_wiring); the
  // daemon reads its kernel's boot clock, the simulation gives none (its journal's first
  // start counts instead).
  std::function<std::optional<std::chrono::milliseconds>()> machine_uptime = {};
};

}  // namespace runwarden
