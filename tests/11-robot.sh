#!/usr/bin/env bash
# The robot's builds that fit make check's time: kernel/sched/ with W=1 at
# every commit in posting order (the stable fix alone, the feature series
# without it, the tree) in the guest's configuration with sparse, without
# jump labels and on i386; no new warning against the base. 'make robot'
# builds all of scripts/config/robot.cells.
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/robot" --cells "${SW_CHECK_ROBOT_CELLS:-x86_64 no-jump i386}"
