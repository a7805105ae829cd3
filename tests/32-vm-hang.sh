#!/usr/bin/env bash
# A guest command that never finishes is stopped at the timeout and reported
# as a hang; so is a guest that never boots (a kernel that is not one).
. "$(dirname "$0")/lib.sh"
need_kernel
t0=$(date +%s)
out=$("$S/vm" --cpus 2 --sockets 1 --mem 512 --timeout 12 -- 'sleep 1000' 2>&1)
rc=$?
dt=$(($(date +%s) - t0))
echo "$out" | tail -n 1
[ "$rc" = 124 ] || fail "hang: exit $rc, want 124"
echo "$out" | tail -n 1 | grep -q "guest hang: command did not finish within 12s" || fail "hang not named"
[ "$dt" -lt 30 ] || fail "timeout not enforced (${dt}s)"

# A "kernel" that never prints anything: QEMU runs, nothing boots.
head -c 4096 /dev/zero >"$TMP/notakernel"
out=$("$S/vm" --kernel "$TMP/notakernel" --cpus 1 --sockets 1 --mem 256 --timeout 6 -- true 2>&1)
rc=$?
echo "$out" | tail -n 1
[ "$rc" = 124 ] || [ "$rc" = 125 ] || fail "silent guest: exit $rc, want 124 or 125"
echo "$out" | tail -n 1 | grep -qE "guest hang: no boot|QEMU failed" || fail "silent guest not named"
