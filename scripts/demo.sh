#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and runs runwarden
# supervising the bundled demo runner (it behaves like gitlab-runner: takes jobs, drains on
# SIGQUIT). Press Ctrl-C once to drain gracefully, twice to stop the jobs at once.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
echo "runwarden is starting the demo runner. Ctrl-C drains it; a second Ctrl-C forces it." >&2
exec build/runwarden run --kind gitlab -- build/runwarden-demo-runner --concurrency 3 \
  --job-interval 2 --job-seconds 8
