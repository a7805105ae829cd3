#!/usr/bin/env bash
# A selftest killed with SIGTERM in the middle of a run leaves the features
# line, the knobs it wrote, no cgroup and no process behind. On the mainline
# line: idlest_util_local with its flag set, schedstats on, spinners and
# parked children running (8 CPUs, 2 LLCs of 4); ineligible's PROTECT_ELIGIBLE
# tick case with base_slice_ns raised and tunable_scaling written (2 CPUs,
# where the slice is 2 ticks). On the 6.12.y line: ineligible with
# base_slice_ns raised (2 CPUs, where the base slice is under 3 ticks), its
# scratch cgroups made and hogs running; its four cgroup cases in a row,
# since one (about 5 s) can end before the guest script, slowed by a busy
# host, sees it mid-run, and a kill between two cases is a case of its own
# (the next test process must find the top-level one gone and restore).
# check: after 01 41
# check: uses selftests
. "$(dirname "$0")/lib.sh"

# kill_midrun VM-ARGS PROGRAM ARGS: the guest script runs PROGRAM, waits
# until it has changed schedstats, started its helpers and, where asked,
# changed base_slice_ns (WANT_SLICE=1), made its cgroups (WANT_CG=1) and
# changed the features line (WANT_FEAT=1), kills it with SIGTERM and
# compares.
kill_midrun() {
	local vmargs=$1 prog=$2 args=$3
	cat >"$TMP/guest.sh" <<GUEST
f=/sys/kernel/debug/sched/features b=/sys/kernel/debug/sched/base_slice_ns
sc=/sys/kernel/debug/sched/tunable_scaling
before=\$(cat \$f) stats=\$(cat /proc/sys/kernel/sched_schedstats) slice=\$(cat \$b) scaling=\$(cat \$sc)
$prog $args >/dev/null 2>&1 &
pid=\$!
# Mid-run: its knobs written (and its cgroups made), its helpers running.
# (waited for as long as the test lives: a loaded host slows its set-up)
ready() {
	[ "\$(cat /proc/sys/kernel/sched_schedstats)" != "\$stats" ] || return 1
	[ "${WANT_SLICE:-0}" = 0 ] || [ "\$(cat \$b)" != "\$slice" ] || return 1
	[ "${WANT_CG:-0}" = 0 ] || ls -d /sys/fs/cgroup/sched-wakeup-*/a >/dev/null 2>&1 || return 1
	[ "${WANT_FEAT:-0}" = 0 ] || [ "\$(cat \$f)" != "\$before" ] || return 1
	[ "\$(pgrep -c -f "$prog")" -gt 1 ]
}
while ! ready && kill -0 \$pid 2>/dev/null && [ \$SECONDS -lt 90 ]; do
	sleep 0.1
done
# Killed at once: a case lasts a few seconds, less than a slow guest's
# pause would leave; the mid-run state is read just before.
ready || { echo "the test had not changed its knobs and started its helpers yet"; exit 1; }
mid="schedstats \$(cat /proc/sys/kernel/sched_schedstats), base_slice_ns \$(cat \$b), \$(pgrep -c -f "$prog") processes of the test, features \$([ "\$(cat \$f)" = "\$before" ] && echo unchanged || echo changed)"
kill -TERM \$pid 2>/dev/null || { echo "the test ended before it could be killed"; exit 1; }
echo "mid-run: \$mid"
wait \$pid
sleep 3
echo "features: \$([ "\$(cat \$f)" = "\$before" ] && echo restored || echo NOT restored)"
echo "sched_schedstats: \$stats before, \$(cat /proc/sys/kernel/sched_schedstats) after"
echo "base_slice_ns: \$slice before, \$(cat \$b) after"
echo "tunable_scaling: \$scaling before, \$(cat \$sc) after"
echo "cgroups left: \$(ls -d /sys/fs/cgroup/sched-wakeup-* 2>/dev/null | wc -l)"
[ "\$(cat \$f)" = "\$before" ] || exit 1
[ "\$(cat /proc/sys/kernel/sched_schedstats)" = "\$stats" ] || exit 1
[ "\$(cat \$b)" = "\$slice" ] || exit 1
[ "\$(cat \$sc)" = "\$scaling" ] || exit 1
! ls -d /sys/fs/cgroup/sched-wakeup-* >/dev/null 2>&1 || exit 1
! pgrep -f "$prog" >/dev/null || { echo "test processes left behind"; exit 1; }
GUEST
	# shellcheck disable=SC2086 # the guest's options
	"$SCRIPTS/vm" $vmargs --timeout 120 --out "$TMP" -- bash "$TMP/guest.sh"
}

need_kernel
ST=$(install_selftests) || exit 1
echo "7.3: idlest_util_local, flag on"
WANT_FEAT=1 kill_midrun "--cpus 8 --sockets 2" "$ST/idlest_util" "-r idlest_util_local.on.fork_placement" ||
	fail "7.3: state not restored after SIGTERM"
echo "7.3: ineligible, protect_tick"
WANT_SLICE=1 kill_midrun "--cpus 2 --sockets 1" "$ST/ineligible" "-v protect_tick" ||
	fail "7.3: state not restored after SIGTERM"
(
	export SW_BASE=6.12
	. "$TOP/scripts/lib/common.sh"
	need_kernel
	ST=$(install_selftests) || exit 1
	echo "6.12: ineligible, its four cgroup cases in a row"
	WANT_SLICE=1 WANT_CG=1 kill_midrun "--cpus 2 --sockets 1" "$ST/ineligible" \
		"-v tick_siblings -v tick_tree -v wakeup_siblings -v wakeup_tree" ||
		fail "6.12: state not restored after SIGTERM"
) || exit 1
