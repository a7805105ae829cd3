#!/usr/bin/env bash
# A guest kernel panic ends QEMU at once and is reported as such.
. "$(dirname "$0")/lib.sh"
need_kernel
t0=$(date +%s)
out=$("$S/vm" --cpus 2 --sockets 1 --mem 512 --timeout 120 -- 'echo c > /proc/sysrq-trigger; sleep 100' 2>&1)
rc=$?
dt=$(($(date +%s) - t0))
echo "$out" | tail -n 1
[ "$rc" = 125 ] || fail "panic: exit $rc, want 125"
echo "$out" | tail -n 1 | grep -q "guest kernel panic: .*sysrq triggered crash" || fail "panic not named"
[ "$dt" -lt 100 ] || fail "QEMU did not stop at the panic (${dt}s)"
echo "panic reported after ${dt}s"
