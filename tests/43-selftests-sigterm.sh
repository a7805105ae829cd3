#!/usr/bin/env bash
# A selftest killed with SIGTERM in the middle of a run (flags and sysctls
# changed) leaves the features line and kernel.sched_schedstats as it found
# them, and no test process behind.
. "$(dirname "$0")/lib.sh"
need_kernel
ST=$(build_selftests) || exit 1
cat >"$TMP/guest.sh" <<GUEST
f=/sys/kernel/debug/sched/features
before=\$(cat \$f) stats=\$(cat /proc/sys/kernel/sched_schedstats)
$ST/ineligible >/dev/null 2>&1 &
pid=\$!
sleep 5
[ "\$(cat /proc/sys/kernel/sched_schedstats)" != "\$stats" ] ||
	{ echo "the test had not changed kernel.sched_schedstats yet"; exit 1; }
kill -TERM \$pid
wait \$pid
sleep 2
echo "features: \$([ "\$(cat \$f)" = "\$before" ] && echo restored || echo NOT restored)"
echo "sched_schedstats: \$stats before, \$(cat /proc/sys/kernel/sched_schedstats) after"
[ "\$(cat \$f)" = "\$before" ] || exit 1
[ "\$(cat /proc/sys/kernel/sched_schedstats)" = "\$stats" ] || exit 1
! pgrep -f "$ST/ineligible" >/dev/null || { echo "test process left behind"; exit 1; }
GUEST
"$S/vm" --timeout 120 --out "$TMP" -- bash "$TMP/guest.sh" || fail "state not restored after SIGTERM"
