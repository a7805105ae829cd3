#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# $retval is kprobe syntax, cleanup() runs from the trap:
# shellcheck disable=SC2016,SC2317
#
# trace.sh OUTDIR COMMAND...: run COMMAND (as root) with kprobes on the fork
# placement, and write OUTDIR/trace.txt. Used for the idlest_util finding in
# README.md, in the guest, with COMMAND
#   build/selftests/sched-wakeup/idlest_util -r idlest_util.on.fork_placement
# Each sched_balance_find_dst_group() call (fdg/fdgr) is followed by the
# cpu_util() calls (cu/cur: CPU, value) it made, all in the forking thread;
# sched_switch shows where that thread ran. Needs CONFIG_KPROBE_EVENTS.
set -u
[ $# -ge 2 ] || { echo "usage: trace.sh OUTDIR COMMAND..." >&2; exit 2; }
out=$1
shift
T=/sys/kernel/tracing
mountpoint -q "$T" || mount -t tracefs nodev "$T" || exit 1
comm=$(basename "$1")
echo 0 >"$T"/tracing_on
echo >"$T"/trace
echo 8000 >"$T"/buffer_size_kb
cleanup() {
	echo 0 >"$T"/tracing_on
	echo 0 >"$T"/events/enable
	echo >"$T"/kprobe_events
}
trap cleanup EXIT
{
	echo 'p:fdg sched_balance_find_dst_group this_cpu=%dx:s32'
	echo 'r:fdgr sched_balance_find_dst_group ret=$retval:x64'
	echo 'p:cu cpu_util cpu=%di:s32 dst=%dx:s32'
	echo 'r:cur cpu_util ret=$retval:u64'
} >"$T"/kprobe_events || exit 1
for e in fdg fdgr cu cur; do
	echo "comm == \"$comm\"" >"$T"/events/kprobes/$e/filter
	echo 1 >"$T"/events/kprobes/$e/enable
done
echo 1 >"$T"/events/sched/sched_switch/enable
echo "parent_comm == \"$comm\"" >"$T"/events/sched/sched_process_fork/filter
echo 1 >"$T"/events/sched/sched_process_fork/enable
echo 1 >"$T"/tracing_on
"$@" >"$out/test.out" 2>&1
rc=$?
echo 0 >"$T"/tracing_on
cat "$T"/trace >"$out/trace.txt"
exit $rc
