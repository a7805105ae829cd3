#!/usr/bin/env bash
# The selftest job through LAVA itself (make lava JOBS=kselftest): the Debian
# root as an initramfs, the kselftest tarball and LAVA's overlay appended by
# LAVA, lava-run boots the kernel on the QEMU device and runs the
# collection; every test case the TAP printed has its LAVA result, no case
# failed, and every case that passed has its measurements. The A/B job is
# left out of make check: about 8 minutes of TCG for a pipeline that
# tests/58 already checks from samples to LAVA results and back.
# check: after 01
# check: uses lava selftests
# check: full
. "$(dirname "$0")/lib.sh"
need_kernel
"$SCRIPTS/install-selftests" --tar >"$TMP/st.log" 2>&1 || { cat "$TMP/st.log"; fail "scripts/install-selftests --tar failed"; }
"$SCRIPTS/debroot" --ramdisk "$BUILD/lava/rootfs.cpio.gz" >"$TMP/root.log" 2>&1 ||
	{ cat "$TMP/root.log"; fail "scripts/debroot --ramdisk failed"; }
tail -n 2 "$TMP/root.log"
out=$TMP/lava
"$SCRIPTS/lava" --jobs kselftest --out "$out" >"$TMP/lava.log" 2>&1
rc=$?
grep -v '^    lava: lava ' "$TMP/lava.log" | tail -n 40
[ "$rc" = 0 ] || fail "scripts/lava exited $rc"
# LAVA's results, and the TAP the DUT printed, both from LAVA's log.
sed 's/": ! "/": "/g' "$out/kselftest.log" | jq -R -c 'fromjson? // empty' >"$TMP/log.json"
jq -r 'select(.lvl == "results" and (.msg.definition | test("_sched-wakeup$")))
	| .msg | "\(.case) \(.result) \(.measurement // "-")"' "$TMP/log.json" >"$TMP/results"
jq -r 'select(.lvl == "target" and (.msg | type) == "string") | .msg' "$TMP/log.json" |
	tr -d '\r' | sed -n 's/^# \(not \)\{0,1\}ok [0-9]* \([a-z_]*\.[a-z_]*\.[a-z_]*\).*/\2/p' | sort -u >"$TMP/tap-cases"
n=$(wc -l <"$TMP/tap-cases")
[ "$n" -ge 10 ] || fail "the TAP in LAVA's log names $n test cases"
while read -r c; do
	grep -q "^$c \(pass\|skip\) -$" "$TMP/results" || fail "test case $c: no pass or skip result in LAVA: $(grep "^$c " "$TMP/results")"
	if grep -q "^$c pass -$" "$TMP/results"; then
		grep -q "^$c\.[a-z0-9_]* pass [-0-9.]*$" "$TMP/results" || fail "test case $c passed without a measurement"
	fi
done <"$TMP/tap-cases"
! grep -q " fail " "$TMP/results" || fail "LAVA recorded failures: $(grep ' fail ' "$TMP/results")"
echo "LAVA: $n test cases, each with its result; $(grep -c '^[^ ]*\.[a-z0-9_]* [a-z]* [0-9.]*$' "$TMP/results") measurements"
