#!/usr/bin/env bash
# The sched-wakeup selftests pass with 8 CPUs as 2 LLCs x 4 (wa_idle_prev,
# idlest_util_local, ineligible), restore the features line, and the
# console stays clean.
. "$(dirname "$0")/lib.sh"
run_selftests 8 2
