// A host program with actors of its own that embeds runwarden: runwarden supervises a runner
// (by default the demo runner installed with runwarden, which behaves like gitlab-runner),
// the host's status_watcher actor follows runwarden's status, asks for a graceful drain once
// the runner runs, and tells main the runner's exit code once runwarden is gone. Run without
// arguments it exits 0 within a minute; `embedded_host COMMAND [ARGS...]` supervises that.
#include <caf/all.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <runwarden/config.hpp>
#include <runwarden/instance.hpp>
#include <runwarden/status.hpp>

namespace {

constexpr std::chrono::seconds runner_wait_max{60};

struct watcher_state {
  // Not an aggregate: CAF 0.17 constructs a state from the actor's pointer when it can, and
  // C++20 lets an aggregate be built with parentheses, so `bool drain_asked` would start as
  // `self != nullptr`, true.
  watcher_state() = default;
  bool drain_asked = false;
};

// The host's own actor: prints each status, drains the runner once it runs, and sends main
// the runner's exit code at gone.
caf::behavior status_watcher(caf::stateful_actor<watcher_state>* self,
                             const runwarden::embedded::instance* runwarden, caf::actor main) {
  return {
      [=](const runwarden::embedded::status& status) {
        using runwarden::embedded::instance_state;
        std::cout << "embedded_host: runwarden " << to_string(status.state) << " ("
                  << to_string(status.phase) << ")"
                  << (status.runner_pid ? ", runner pid " + std::to_string(*status.runner_pid)
                                        : std::string{})
                  << std::endl;
        if (status.state == instance_state::running && status.runner_pid &&
            !self->state.drain_asked) {
          self->state.drain_asked = true;
          const auto refused =
              runwarden->request_shutdown({.reason = "the embedded host is done with its runner",
                                           .deadline = std::chrono::seconds{30}});
          if (!refused.empty())
            std::cerr << "embedded_host: drain refused: " << refused << std::endl;
        }
        // Heard once. An end runwarden could not read (exit_unknown) has no exit code.
        if (status.state == instance_state::gone)
          self->send(main, status.exit_code.value_or(EXIT_FAILURE));
      },
  };
}

std::string toml_string(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text)
    quoted += (c == '"' || c == '\\') ? std::string{'\\', c} : std::string{c};
  return quoted + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> command{argv + 1, argv + argc};
  if (command.empty())
    command = {RUNWARDEN_DEMO_RUNNER, "--concurrency", "1", "--job-seconds", "2"};
  // The journal goes to a directory of the host's own; one instance may use it at a time.
  const auto state_directory =
      std::filesystem::temp_directory_path() / ("embedded-host-" + std::to_string(::getpid()));
  auto loaded = runwarden::embedded::config::from_toml(
      "[runner]\nkind = \"gitlab\"\n"
      "[journal]\nstate_directory = " +
          toml_string(state_directory.string()) + "\n",
      command);
  if (!loaded.config) {
    for (const auto& error : loaded.errors) std::cerr << "embedded_host: " << error << '\n';
    return EXIT_FAILURE;
  }
  caf::actor_system_config actor_config;  // the host's own scheduler settings
  caf::actor_system system{actor_config};
  auto started = runwarden::embedded::instance::start(system, *loaded.config);
  if (!started.instance) {
    std::cerr << "embedded_host: " << started.error << '\n';
    return EXIT_FAILURE;
  }
  caf::scoped_actor main_actor{system};
  auto watcher =
      system.spawn(status_watcher, &*started.instance, caf::actor_cast<caf::actor>(main_actor));
  started.instance->subscribe(watcher);
  int exit_code = EXIT_FAILURE;
  main_actor->receive([&](int runner_exit_code) { exit_code = runner_exit_code; },
                      caf::after(runner_wait_max) >>
                          [&] {
                            std::cerr << "embedded_host: runwarden not gone after "
                                      << runner_wait_max.count() << "s\n";
                          });
  caf::anon_send_exit(watcher, caf::exit_reason::user_shutdown);
  started.instance->stop();
  std::filesystem::remove_all(state_directory);
  return exit_code;
}
