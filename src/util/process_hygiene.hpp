#pragma once
// What a daemon makes sure of before anything else (daemon(7)). Descriptors 0, 1 and 2 are
// open: one closed at start (`runwarden run >&- 2>&-`) would be the next file opened, and the
// log would be written into the journal or its lock. SIGPIPE is ignored: a log reader that
// went away (a `| tee` that ended, a container's log shim) gives EPIPE, not runwarden's
// death. The runner gets SIGPIPE back at its default: the start gate resets every signal.

namespace runwarden {

void take_standard_descriptors_and_ignore_sigpipe();

}  // namespace runwarden
