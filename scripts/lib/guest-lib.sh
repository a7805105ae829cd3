# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the scripts that run on the machine under test (a scripts/vm
# guest or a box booted into the patched kernel): errors, the root check,
# debugfs, and what the machine is. Sourced; the caller sets PROG. Bad usage
# exits 2, any other error 1, each with one line on stderr.

. "${BASH_SOURCE[0]%/*}/features.sh"
export LC_ALL=C

die() {
	echo "$PROG: error: $*" >&2
	exit 1
}

usage_error() {
	echo "$PROG: error: $* (see --help)" >&2
	exit 2
}

need_root() {
	[ "$(id -u)" = 0 ] || die "must run as root ($*)"
}

# mount_debugfs: the sched features need debugfs; mount it when it is not.
# SW_DEBUGFS_MOUNTED=1 then tells the caller to unmount it when done.
SW_DEBUGFS_MOUNTED=0
mount_debugfs() {
	[ -e "$FEAT" ] && return 0
	if ! grep -q ' /sys/kernel/debug debugfs ' /proc/mounts; then
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null ||
			die "cannot mount debugfs at /sys/kernel/debug"
		SW_DEBUGFS_MOUNTED=1
	fi
	[ -e "$FEAT" ] || die "no $FEAT: a kernel without CONFIG_SCHED_DEBUG"
}

# sysfs_list FILE...: the distinct lines of the files, space-separated.
sysfs_list() {
	cat "$@" 2>/dev/null | sort -n -u | paste -sd' ' -
}

# machine_report: kernel, preemption, HZ, CPUs and topology, autogroup.
machine_report() {
	local j0 j1 t0 t1 hz rt preempt smt ag
	j0=$(sed -n 's/^jiffies *: //p' /sys/kernel/debug/sched/debug 2>/dev/null | head -n 1)
	t0=$(date +%s%N)
	sleep 1
	j1=$(sed -n 's/^jiffies *: //p' /sys/kernel/debug/sched/debug 2>/dev/null | head -n 1)
	t1=$(date +%s%N)
	hz="?"
	[ -n "$j0" ] && [ -n "$j1" ] && hz=$(((j1 - j0) * 1000000000 / (t1 - t0)))
	preempt=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/preempt 2>/dev/null)
	rt=no
	[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && rt=yes
	smt=$(sysfs_list /sys/devices/system/cpu/cpu*/topology/thread_siblings_list |
		awk '{ n = 0; for (i = 1; i <= NF; i++) { c = split($i, a, /[,-]/); n = n > c ? n : c } print n }')
	ag="not built"
	[ -r /proc/sys/kernel/sched_autogroup_enabled ] &&
		ag=$([ "$(cat /proc/sys/kernel/sched_autogroup_enabled)" = 1 ] && echo enabled || echo disabled)
	echo "kernel:    $(uname -r)"
	echo "preempt:   ${preempt:-not dynamic} (PREEMPT_RT: $rt)"
	echo "HZ:        about $hz (jiffies over one second)"
	echo "cpus:      $(nproc) online: $(cat /sys/devices/system/cpu/online), possible: $(cat /sys/devices/system/cpu/possible)"
	echo "smt:       up to ${smt:-1} thread(s) per core"
	echo "llcs:      $(sysfs_list /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list)"
	echo "nodes:     $(sysfs_list /sys/devices/system/node/node*/cpulist)"
	echo "autogroup: $ag"
}

# flags_report: each flag of the series and its state; non-zero when one is
# missing (a kernel without the series).
flags_report() {
	local f line missing=0
	line=" $(cat "$FEAT") "
	printf '%-20s %s\n' flag state
	for f in $SW_FLAGS; do
		if [[ $line == *" NO_$f "* ]]; then
			printf '%-20s %s\n' "$f" off
		elif [[ $line == *" $f "* ]]; then
			printf '%-20s %s\n' "$f" on
		else
			printf '%-20s %s\n' "$f" "MISSING (a kernel without the series?)"
			missing=1
		fi
	done
	return $missing
}
