// See sim_ports.hpp.
#include "src/sim/sim_ports.hpp"

namespace runwarden {

sim_seconds sim_now(const caf::actor_clock::time_point& now,
                    const caf::actor_clock::time_point& start) {
  return std::chrono::duration<double>(now - start).count();
}

http_port_actor::behavior_type sim_http_port(http_port_actor::pointer self,
                                             sim_port_wiring wiring) {
  return {
      [=](const host_lookup& lookup) {
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                       host_lookup_result{lookup.id, {"192.0.2.1"}, {}});
      },
      [=](const http_request& request) {
        const auto to = caf::actor_cast<caf::actor>(self->current_sender());
        auto later = [to, id = request.id](http_response response) {
          response.id = id;
          caf::anon_send(to, std::move(response));
        };
        auto answer = wiring.world->answer(wiring.instance, request,
                                           sim_now(self->clock().now(), wiring.start), later);
        if (answer.held) return;
        if (!answer.response) {
          caf::delayed_anon_send(
              to, request.timeout,
              http_response{.id = request.id, .transport_error = "Operation timed out"});
          return;
        }
        answer.response->id = request.id;
        if (answer.delay.count() == 0)
          caf::anon_send(to, std::move(*answer.response));
        else
          caf::delayed_anon_send(to, answer.delay, std::move(*answer.response));
      },
  };
}

process_port_actor::behavior_type sim_process_port(process_port_actor::pointer self,
                                                   sim_port_wiring wiring) {
  return {
      [=](spawn_atom) {
        // A runwarden killed with this spawn still in the port's mailbox never forked.
        if (!wiring.world->runwarden_up(wiring.instance)) return;
        const auto pid =
            wiring.world->spawn_runner(wiring.instance, sim_now(self->clock().now(), wiring.start));
        caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()), runner_spawned{pid});
      },
      // kill() succeeds on a live process: the delivery is reported as the production port
      // reports it.
      [=](signal_atom, std::int64_t pid, std::int32_t signal_number) {
        const bool alive = wiring.world->runner_alive(wiring.instance, pid);
        wiring.world->signal_runner(wiring.instance, signal_number,
                                    sim_now(self->clock().now(), wiring.start));
        if (alive)
          caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                         runner_signal_delivered{pid, signal_number});
      },
      // A runwarden back from a crash watches its runner again; one that ended meanwhile is
      // reported at once with the status its keeper reaped, as the production port does.
      [=](release_atom, std::int64_t pid, bool go) {
        wiring.world->release_runner(wiring.instance, pid, go,
                                     sim_now(self->clock().now(), wiring.start));
      },
      [=](adopt_atom, std::int64_t pid, const process_identity&) {
        if (!wiring.world->runner_alive(wiring.instance, pid))
          caf::anon_send(caf::actor_cast<caf::actor>(self->current_sender()),
                         runner_exited{pid, wiring.world->runner_end(wiring.instance, pid)});
      },
  };
}

}  // namespace runwarden
