#!/usr/bin/env bash
# A selftest killed with SIGTERM in the middle of a run (flags, sysctls and
# base_slice changed, scratch cgroups made, hog processes running) leaves
# the features line, kernel.sched_schedstats and base_slice_ns as it found
# them, no cgroup and no process behind. In 2 CPUs, where the base slice is
# under 3 ticks and the test raises it.
. "$(dirname "$0")/lib.sh"
need_kernel
ST=$(install_selftests) || exit 1
cat >"$TMP/guest.sh" <<GUEST
f=/sys/kernel/debug/sched/features b=/sys/kernel/debug/sched/base_slice_ns
before=\$(cat \$f) stats=\$(cat /proc/sys/kernel/sched_schedstats) slice=\$(cat \$b)
$ST/ineligible -v tick_siblings >/dev/null 2>&1 &
pid=\$!
# Mid-run: its cgroups made, the rounds begun.
# (waited for as long as the test lives: a loaded host slows its set-up)
while ! ls -d /sys/fs/cgroup/sched-wakeup-*/a >/dev/null 2>&1 && kill -0 \$pid 2>/dev/null && [ \$SECONDS -lt 90 ]; do
	sleep 0.1
done
sleep 1
[ "\$(cat /proc/sys/kernel/sched_schedstats)" != "\$stats" ] && [ "\$(cat \$b)" != "\$slice" ] ||
	{ echo "the test had not changed kernel.sched_schedstats and base_slice_ns yet"; exit 1; }
kill -0 \$pid 2>/dev/null || { echo "the test ended before it could be killed"; exit 1; }
kill -TERM \$pid
wait \$pid
sleep 3
echo "features: \$([ "\$(cat \$f)" = "\$before" ] && echo restored || echo NOT restored)"
echo "sched_schedstats: \$stats before, \$(cat /proc/sys/kernel/sched_schedstats) after"
echo "base_slice_ns: \$slice before, \$(cat \$b) after"
echo "cgroups left: \$(ls -d /sys/fs/cgroup/sched-wakeup-* 2>/dev/null | wc -l)"
[ "\$(cat \$f)" = "\$before" ] || exit 1
[ "\$(cat /proc/sys/kernel/sched_schedstats)" = "\$stats" ] || exit 1
[ "\$(cat \$b)" = "\$slice" ] || exit 1
! ls -d /sys/fs/cgroup/sched-wakeup-* >/dev/null 2>&1 || exit 1
! pgrep -f "$ST/ineligible" >/dev/null || { echo "test processes left behind"; exit 1; }
GUEST
"$SCRIPTS/vm" --cpus 2 --sockets 1 --timeout 120 --out "$TMP" -- bash "$TMP/guest.sh" || fail "state not restored after SIGTERM"
