# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the scripts that run on the machine under test (a scripts/vm
# guest or a box booted into the patched kernel): errors, the root check,
# debugfs, and what the machine is. Sourced; the caller sets PROG. Bad usage
# exits 2, any other error 1, each with one line on stderr.

. "${BASH_SOURCE[0]%/*}/../features.sh"
. "${BASH_SOURCE[0]%/*}/../args.sh"
export LC_ALL=C

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
	[ -e "$FEAT" ] || die "no $FEAT: a kernel without CONFIG_DEBUG_FS (before 6.15: or CONFIG_SCHED_DEBUG)"
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
	# Under QEMU (scripts/vm), the clock the guest's time follows: "icount
	# shift=N" (instructions counted, host load does not show) or "host".
	echo "clock:     ${SW_CLOCK:-not a scripts/vm guest} ($(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null))"
	# What 7.3 added that moves placement and EEVDF: HRTICK's state, cache-
	# aware load balancing, the cgroup weight mode ("-" where absent).
	local line hrtick=- llc=- cgm=-
	line=" $(cat "$FEAT" 2>/dev/null) "
	[[ $line == *" HRTICK "* ]] && hrtick=on
	[[ $line == *" NO_HRTICK "* ]] && hrtick=off
	[ -r /sys/kernel/debug/sched/llc_balancing/enabled ] &&
		llc=$(cat /sys/kernel/debug/sched/llc_balancing/enabled)
	[ -r /sys/kernel/debug/sched/cgroup_mode ] &&
		cgm=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/cgroup_mode)
	echo "sched:     HRTICK $hrtick, llc_balancing/enabled $llc, cgroup_mode $cgm"
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

# --- a runner's start and end ---------------------------------------------------
# runner_start WHY: root, debugfs and the features line saved; from then on
# every exit -- the end, an error, SIGINT, SIGTERM, SIGHUP -- runs the hooks
# given to on_exit (last first), restores the features line, and unmounts
# debugfs if this script mounted it.

SW_EXIT_HOOKS=()
on_exit() {
	SW_EXIT_HOOKS+=("$1")
}

runner_exit() {
	local rc=$? i
	trap - EXIT INT TERM HUP
	for ((i = ${#SW_EXIT_HOOKS[@]} - 1; i >= 0; i--)); do
		eval "${SW_EXIT_HOOKS[i]}"
	done
	feat_restore || rc=1
	[ "$SW_DEBUGFS_MOUNTED" = 1 ] && umount /sys/kernel/debug 2>/dev/null
	exit $rc
}

runner_start() {
	need_root "$1"
	mount_debugfs
	[ -w "$FEAT" ] || die "no writable $FEAT"
	feat_save
	trap runner_exit EXIT
	trap 'echo "$PROG: interrupted" >&2; exit 130' INT
	trap 'echo "$PROG: terminated" >&2; exit 143' TERM
	trap 'exit 129' HUP
}

# --- cgroups --------------------------------------------------------------------

CGROOT=/sys/fs/cgroup

# cg_make DIR...: create cgroups (and their parents) below CGROOT with the
# cpu controller enabled on the way down; one line on stderr if it cannot.
cg_make() {
	local d p part IFS=/
	[ -f "$CGROOT/cgroup.controllers" ] ||
		{ echo "$PROG: cgroup v2 is not mounted at $CGROOT" >&2; return 1; }
	for d in "$@"; do
		mkdir -p "$d" || return 1
		p=$CGROOT
		for part in ${d#"$CGROOT"/}; do
			grep -qw cpu "$p/cgroup.subtree_control" ||
				echo +cpu >"$p/cgroup.subtree_control" ||
				{ echo "$PROG: cannot enable the cpu controller in $p" >&2; return 1; }
			p=$p/$part
		done
	done
}

# cg_remove DIR: remove a cgroup tree; its last tasks may still be exiting,
# so it retries for up to 10 s.
cg_remove() {
	local i
	for i in $(seq 100); do
		[ -d "$1" ] || return 0
		find "$1" -depth -mindepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "$PROG: warning: could not remove $1" >&2
}

# --- background processes --------------------------------------------------------
# Each in a process group of its own, so that a signal reaches all it forked.

SW_BG=()

# bg_start CGROUP COMMAND...: start COMMAND in the background, in CGROUP
# unless that is empty; output discarded.
bg_start() {
	local cg=$1
	shift
	if [ -n "$cg" ]; then
		# shellcheck disable=SC2016 # $$ and $@ are the child shell's
		setsid sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@" \
			>/dev/null 2>&1 </dev/null &
	else
		setsid "$@" >/dev/null 2>&1 </dev/null &
	fi
	SW_BG+=($!)
}

# bg_spawn LOG COMMAND...: start COMMAND in the background; its output goes
# to LOG and its exit status to LOG.rc.
bg_spawn() {
	local log=$1
	shift
	setsid bash -c '"$@" >"$0" 2>&1; echo $? >"$0.rc"' "$log" "$@" </dev/null &
	SW_BG+=($!)
}

# bg_signal SIGNAL: send SIGNAL to every background group.
bg_signal() {
	local p
	for p in "${SW_BG[@]}"; do
		kill "-$1" -- "-$p" 2>/dev/null
	done
}

# bg_stop: end them all (a stopped group is continued to take the signal)
# and reap them.
bg_stop() {
	local p
	bg_signal TERM
	bg_signal CONT
	for p in "${SW_BG[@]}"; do
		wait "$p" 2>/dev/null
	done
	SW_BG=()
}
