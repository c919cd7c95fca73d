"""A runner's job report, as GitHub's job hooks or any runner's script would make it:
`runwarden ctl job start|end ID`, tried again while runwarden's control socket is not
listening yet (the runner starts before it), for at most 30 s."""

import subprocess
import time

RETRY_S = 30


def report_job(runwarden, socket, event, job_id):
    """The last `ctl job` run (a CompletedProcess): its return code 0 once reported."""
    deadline = time.monotonic() + RETRY_S
    while True:
        done = subprocess.run([runwarden, "ctl", "--socket", socket, "job", event, job_id],
                              capture_output=True, text=True, timeout=RETRY_S)
        if done.returncode == 0 or time.monotonic() > deadline:
            return done
        time.sleep(0.05)
