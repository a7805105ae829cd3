#!/usr/bin/env bash
# The robot's builds that fit make check's time: kernel/sched/ with W=1 at
# every commit in posting order (the stable fix alone on the base, the
# feature series without it, the tree) in the guest's configuration, and
# sparse at the base and the last commit; no new warning against the base.
# 'make robot' builds the other eight configurations of
# scripts/config/robot.cells (no SCHED_DEBUG, no jump labels, UP, no fair
# group scheduling, no schedstats, PREEMPT_RT, i386, arm64).
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/robot" --cells "${SW_CHECK_ROBOT_CELLS:-x86_64}"
