#!/usr/bin/env bash
# The sched-wakeup selftests pass with 6 CPUs as 3 LLCs x 2 (idlest_util,
# ineligible), restore the features line, and the console stays clean.
. "$(dirname "$0")/lib.sh"
run_selftests 6 3
