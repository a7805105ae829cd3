#!/usr/bin/env bash
# A guest command that never finishes is stopped at the timeout and reported
# as a hang; so is a guest that never boots (a "kernel" of zeroes that never
# prints anything). The command sleeps forever: a finite sleep ends early
# on a guest clock that skips idle time (icount with sleep=off, the first
# default: 'sleep 1000' ended after 9 s of host time). The report says how
# much CPU QEMU used at the end (a guest whose vCPUs all halted with no
# timer uses almost none: one froze that way on 2026-12-07) and where the
# monitor's view of the vCPUs was written; the monitor's FIFOs are gone.
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
vm_fails 124 "guest hang: command did not finish within 25s \(QEMU used [0-9]+\.[0-9]{2}% of a CPU in the last 2[5-9] s; the vCPUs: $TMP/hang/hang-state.txt; console" 45 \
	--cpus 2 --sockets 1 --mem 512 --timeout 25 --log "$TMP/hang" -- 'sleep infinity'
grep -a -m 4 -E '^VM status|^CPU#|^RIP=' "$TMP/hang/hang-state.txt" | sed 's/^/# /'
grep -q '^VM status: running' "$TMP/hang/hang-state.txt" || fail "hang-state.txt lacks the VM's status"
grep -q '^CPU#1' "$TMP/hang/hang-state.txt" || fail "hang-state.txt lacks the second vCPU's registers"
[ ! -e "$TMP/hang/monitor.in" ] && [ ! -e "$TMP/hang/monitor.out" ] ||
	fail "the monitor's FIFOs were left in $TMP/hang"
head -c 4096 /dev/zero >"$TMP/notakernel"
vm_fails 124 "guest hang: no boot within 6s" 20 \
	--kernel "$TMP/notakernel" --cpus 1 --sockets 1 --mem 256 --timeout 6 -- true
