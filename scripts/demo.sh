#!/usr/bin/env bash
# The README's first command: installs what is missing, builds runwarden and the demo runner
# (only those: the tests are the second command's), and runs runwarden supervising the demo
# runner with config/demo.toml. The demo runner behaves like gitlab-runner: takes jobs,
# serves gitlab-runner's /metrics, drains on SIGQUIT. Press Ctrl-C once to drain gracefully,
# twice to stop the jobs at once; watch the jobs count down from another terminal with
# `build/runwarden ctl status --watch`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release runwarden runwarden-demo-runner
echo "runwarden is starting the demo runner. Ctrl-C drains it; a second Ctrl-C forces it." >&2
exec build/runwarden run --config config/demo.toml -- \
  build/runwarden-demo-runner --listen-address 127.0.0.1:9252 --concurrency 3 \
  --job-interval 2 --job-seconds 8
