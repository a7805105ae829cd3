#!/usr/bin/env bash
# Every patch builds kernel/sched/ on its own and adds no W=1 warning.
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/check-series" --bisect
