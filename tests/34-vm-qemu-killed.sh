#!/usr/bin/env bash
# QEMU killed mid-run (SIGKILL, as the OOM killer would): scripts/vm stops
# waiting at once and says so in one line, exit 125, instead of reporting a
# hang at the timeout.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
log=$TMP/vmlog
small_vm_bg "$log" 300 'sleep 250'
vpid=$!
for _ in $(seq 240); do
	grep -q '^SW-BOOTED' "$log/status" 2>/dev/null && break
	sleep 0.5
done
grep -q '^SW-BOOTED' "$log/status" 2>/dev/null || { kill $vpid; fail "guest did not boot"; }
qpid=$(pgrep -f "qemu-system.*$log/")
[ -n "$qpid" ] || { kill $vpid; fail "no QEMU process found for $log"; }
t0=$(date +%s)
kill -9 "$qpid"
wait $vpid
rc=$?
dt=$(($(date +%s) - t0))
tail -n 1 "$TMP/out"
[ "$rc" = 125 ] || fail "exit $rc, wanted 125"
[ "$dt" -le 10 ] || fail "took ${dt}s to notice"
tail -n 1 "$TMP/out" | grep -q 'QEMU was killed (signal 9) after [0-9]*s, mid-run' ||
	fail "unexpected message"
