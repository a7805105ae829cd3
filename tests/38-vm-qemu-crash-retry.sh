#!/usr/bin/env bash
# QEMU crashing before the guest boots gets one fresh attempt, announced in
# one line, and the command's own exit status then; a crash after boot is
# not retried (test 34 covers that side).
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
log=$TMP/vmlog
small_vm_bg "$log" 120 'exit 7'
vpid=$!
qpid=""
for _ in $(seq 100); do
	qpid=$(pgrep -f "qemu-system.*$log/") && break
	sleep 0.05
done
[ -n "$qpid" ] || { kill $vpid; fail "no QEMU process found for $log"; }
grep -q '^SW-BOOTED' "$log/status" 2>/dev/null && { kill $vpid; skip "guest booted before the crash could be simulated"; }
kill -SEGV "$qpid"
wait $vpid
rc=$?
cat "$TMP/out"
[ "$rc" = 7 ] || fail "exit $rc, wanted the command's 7 after one retry"
grep -q 'QEMU crashed (signal 11) after [0-9]*s, before the guest booted; retrying once' "$TMP/out" ||
	fail "the retry was not announced"
[ "$(grep -c 'retrying once' "$TMP/out")" = 1 ] || fail "retried more than once"
[ -f "$log/qemu.1.log" ] || fail "the first attempt's QEMU log was not kept"
