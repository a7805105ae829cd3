#!/usr/bin/env bash
# idlest_util, the selftest that needs three LLCs, passes with 6 CPUs as
# 3 LLCs x 2 (the others ran with 8 CPUs), restores the features line, and
# the console stays clean.
. "$(dirname "$0")/lib.sh"
run_selftests 6 3 idlest_util
