#pragma once
// The typed interfaces between the warden and the cloud's actors: the watchers that tell it
// what calls for a drain, and its lifecycle client, which answers the cloud's lifecycle hook
// or event for it (the lifecycle hooks actor on AWS, the Azure watcher for Scheduled
// Events). Each watcher holds only the view of the warden it uses, which a warden_actor
// handle converts to.

#include <string>

#include "caf/all.hpp"
#include "messages/http_messages.hpp"
#include "messages/lifecycle_messages.hpp"
#include "messages/warden_messages.hpp"

namespace runwarden {

// What the warden asks of its lifecycle client:
//   (heartbeat_atom, hook_name)                    record a heartbeat, so that the hook does
//                                                  not time out while the jobs finish
//   (complete_atom, hook_name, lifecycle_result)   complete once the runner is gone and
//                                                  unregistered; answered with one
//                                                  lifecycle_action_completed
//   lifecycle_trigger                              a terminate transition or spot notice
//                                                  (calls_for_lifecycle_lookup), passed on:
//                                                  find the hook to answer
using lifecycle_client_actor =
    caf::typed_actor<caf::reacts_to<heartbeat_atom, std::string>,
                     caf::reacts_to<complete_atom, std::string, lifecycle_result>,
                     caf::reacts_to<lifecycle_trigger>>;

// The lifecycle hooks actor: the warden's lifecycle client on AWS, which also follows the
// warden's status (a restarted one finds a hook still to be found; the launch hook waits for
// the runner to be ready).
using lifecycle_hooks_actor = lifecycle_client_actor::extend_with<status_subscriber_actor>;

// The warden as the hooks actor sees it: it subscribes, tells the group it found, the hook
// to answer (lifecycle_action_pending) or that none applies (lifecycle_lookup_ended), and
// each completion's outcome.
using lifecycle_hooks_listener_actor = status_source_actor::extend<
    caf::reacts_to<instance_group>, caf::reacts_to<lifecycle_action_pending>,
    caf::reacts_to<lifecycle_action_completed>, caf::reacts_to<lifecycle_lookup_ended>>;

// The EC2 and Google Cloud watchers: no peer but their HTTP ports sends them anything; they
// poll on their own and report to their listener.
using aws_watcher_actor = http_requester_actor;
using gcp_watcher_actor = http_requester_actor;

// The warden as a watcher sees it: lifecycle_trigger once per notice, and from the EC2
// watcher, instance_identity once.
using trigger_listener_actor = caf::typed_actor<caf::reacts_to<lifecycle_trigger>>;
using aws_watcher_listener_actor =
    trigger_listener_actor::extend<caf::reacts_to<instance_identity>>;

// The Azure watcher is the warden's lifecycle client for Scheduled Events: it approves an
// event (StartRequests) when asked to complete it. Azure takes no heartbeats, and its events
// are found by its own reads, so those two messages change nothing there.
using azure_watcher_actor = lifecycle_client_actor;

// The warden as the Azure watcher sees it: the trigger, the event to approve, and the
// approval's outcome.
using azure_watcher_listener_actor =
    trigger_listener_actor::extend<caf::reacts_to<lifecycle_action_pending>,
                                   caf::reacts_to<lifecycle_action_completed>>;

}  // namespace runwarden
