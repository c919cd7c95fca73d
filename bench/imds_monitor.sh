#!/usr/bin/env bash
# The peer of the idle measurement: what today's lifecycle monitor scripts do, as a bash
# loop. Every INTERVAL seconds it fetches a fresh IMDSv2 token (curl -X PUT) and reads the
# Auto Scaling target lifecycle state once (curl GET), and would drain on "Terminated".
# Usage: bench/imds_monitor.sh ENDPOINT INTERVAL   (e.g. http://127.0.0.1:PORT 10)
# Unlike most such scripts, the token goes to curl on stdin (-H @-), not in its argv.
set -uo pipefail
endpoint=$1
interval=$2

while true; do
  token=$(curl -sS -X PUT -H "X-aws-ec2-metadata-token-ttl-seconds: 21600" \
               "$endpoint/latest/api/token")
  state=$(printf 'X-aws-ec2-metadata-token: %s\n' "$token" |
          curl -sS -H @- "$endpoint/latest/meta-data/autoscaling/target-lifecycle-state")
  if [[ $state == Terminated ]]; then
    echo "terminating: drain the runner here"
  fi
  sleep "$interval"
done
