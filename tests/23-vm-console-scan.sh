#!/usr/bin/env bash
# The console scan names the first kernel error of each kind, and stays quiet
# on a clean boot log.
. "$(dirname "$0")/lib.sh"
. "$SCRIPTS/lib/qemu.sh"
check() {
	local want=$1 line=$2 got
	printf '[    0.1] Linux version 6.12\n[    1.0] %s\n[    2.0] WARNING: later\n' "$line" >"$TMP/c"
	got=$(vm_scan_console "$TMP/c" | cut -f1)
	[ "$got" = "$want" ] || fail "'$line' scanned as '$got', want '$want'"
}
check panic "Kernel panic - not syncing: sysrq triggered crash"
check Oops "Oops: general protection fault, probably for non-canonical address"
check BUG "BUG: kernel NULL pointer dereference, address: 0000000000000000"
check BUG "kernel BUG at kernel/sched/fair.c:123!"
check WARNING "WARNING: CPU: 3 PID: 1 at kernel/sched/fair.c:5 foo+0x1/0x2"
check "lockdep report" "WARNING: possible circular locking dependency detected"
check "RCU stall" "rcu: INFO: rcu_preempt self-detected stall on CPU"
check "hung task" "INFO: task kworker/0:1:12 blocked for more than 120 seconds."
check "soft lockup" "watchdog: BUG: soft lockup - CPU#2 stuck for 22s!"
printf '[    0.1] Linux version 6.12\n[    0.2] smp: Brought up 1 node, 8 CPUs\n' >"$TMP/c"
[ -z "$(vm_scan_console "$TMP/c")" ] || fail "clean log flagged"
echo "9 kinds of kernel error recognised; a clean log passes"
