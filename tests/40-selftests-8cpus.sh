#!/usr/bin/env bash
# The sched-wakeup selftests pass in a 8-CPU guest (2 LLCs x 4), leave
# the features line as they found it, and the console stays clean.
. "$(dirname "$0")/lib.sh"
need_kernel
ST=$KSRC/tools/testing/selftests/sched-wakeup
[ -f "$ST/Makefile" ] || fail "no selftests in $KSRC"
make -s -C "$ST" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; fail "selftests do not build"; }
"$S/vm" --cpus 8 --sockets 2 --timeout 900 --out "$TMP" -- bash "$S/lib/guest-report" "$TMP" "$ST"
rc=$?
[ "$rc" = 0 ] || fail "selftests failed in the guest (exit $rc)"
