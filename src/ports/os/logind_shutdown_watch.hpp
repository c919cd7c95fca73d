#pragma once
// Hears logind's PrepareForShutdown(true) on the system bus: the signal logind sends when a
// shutdown or reboot is asked for, before it waits for the delay locks (org.freedesktop.login1(5)).
// A delay lock alone only postpones the shutdown; the kubelet's graceful node shutdown also
// listens for this signal and starts its drain, so that the runner stops taking jobs and the
// lock can be released as soon as the last one ends. runwarden does the same: the callback
// starts a drain.
//
// A thread of its own owns one sd-bus connection (sd-bus objects are not shared between
// threads) and waits on it with poll(2) beside an eventfd that stop() writes, so it wakes
// only for the bus. The static binary has no sd-bus: start() says so and starts nothing.

#include <functional>
#include <optional>
#include <string>
#include <thread>

namespace runwarden {

class logind_shutdown_watch {
 public:
  // Called on the watch's thread: true when a shutdown begins, false when it was cancelled.
  using prepare_callback = std::function<void(bool shutting_down)>;

  logind_shutdown_watch() = default;
  logind_shutdown_watch(const logind_shutdown_watch&) = delete;
  logind_shutdown_watch& operator=(const logind_shutdown_watch&) = delete;
  ~logind_shutdown_watch() { stop(); }

  // Connects and subscribes on the calling thread (bounded by the bus's call timeout), then
  // waits on its own thread. Returns why it could not start (no bus, this build).
  std::optional<std::string> start(prepare_callback callback);
  void stop();

 private:
  void run();

  prepare_callback callback_;
  void* bus_ = nullptr;  // sd_bus*, kept out of this header so the static build needs none
  int wake_ = -1;        // eventfd: stop() writes it
  std::thread thread_;
};

}  // namespace runwarden
