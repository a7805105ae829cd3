#!/usr/bin/env bash
# The robot's builds that fit make check's time, on each kernel line:
# kernel/sched/ with W=1 at every commit in posting order (a stable fix alone
# on the base, the feature series without it, the tree) in the guest's
# configuration, with gcc and with clang 19 (LLVM=1), and sparse at the
# base and the last commit; no new warning
# against the base. 'make robot' builds the other configurations of
# scripts/config/robot.cells (no NUMA on 7.3, no SCHED_DEBUG on 6.12, no jump
# labels, UP, no fair group scheduling, no schedstats, PREEMPT_RT, i386,
# arm64).
# check: cpus all
# check: full
. "$(dirname "$0")/lib.sh"
for line in $SW_LINES; do
	SW_BASE=$line "$SCRIPTS/robot" --cells "${SW_CHECK_ROBOT_CELLS:-x86_64 clang}" ||
		fail "the robot's build of the $line line found a problem"
done
