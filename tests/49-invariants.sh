#!/usr/bin/env bash
# What must hold in every configuration (scripts/invariants: no timer
# storm, no run or wait made longer by the EEVDF flags, no function-call
# interrupt they add), from traces on virtual time. make check: the
# mainline line's subset (--quick, three configurations, five scenarios),
# which passes, and the same on PROTECT_ELIGIBLE as posted before
# 2026-12-07 (the v2 mutant, tests/lib.sh), which must fail I1 (the storm
# on a repick) and I2 (PREEMPT_SHORT's end pushed back). make check-full:
# the whole product (eight configurations, ten scenarios) on both lines.
# check: cpus 2
# check: after 01 41 42
# check: uses mutant-tree
. "$(dirname "$0")/lib.sh"
need_kernel
out=$BUILD/check-invariants
rm -rf "$out" && mkdir -p "$out"
build_mutant v2 >/dev/null || exit 1
quick=--quick
[ "${SW_CHECK_TIER:-full}" != full ] || quick=""
"$SCRIPTS/invariants" $quick --out "$out/line" >"$out/line.log" 2>&1 &
line=$!
"$SCRIPTS/invariants" --quick --kernel "$BUILD/mutants/v2.bzImage" --out "$out/v2" \
	>"$out/v2.log" 2>&1 &
v2=$!
wait "$line"
rc=$?
wait "$v2"
rc2=$?
grep -E '^I[1-4] |passed' "$out/line.log"
[ "$rc" = 0 ] || fail "an invariant failed on the $SW_BASE line (traces in $out/line)"
echo "the v2 mutant:"
grep -E '^I[1-4] .*FAIL$|passed' "$out/v2.log"
[ "$rc2" = 1 ] || fail "the v2 mutant's run did not end in failed invariants (exit $rc2; $out/v2.log)"
grep -q '^I1 .*flags on.*FAIL$' "$out/v2.log" || fail "I1 did not catch the v2 mutant's timer storm"
grep -q '^I2 .*FAIL$' "$out/v2.log" || fail "I2 did not catch the v2 mutant's longer runs"
echo "the v2 mutant fails I1 and I2, as predicted"

[ "${SW_CHECK_TIER:-full}" = full ] || exit 0
# The 6.12.y line: its kernel is tests/41's.
export SW_BASE=6.12
. "$TOP/scripts/lib/common.sh"
need_kernel
"$SCRIPTS/invariants" --out "$out/6.12" >"$out/6.12.log" 2>&1
rc=$?
grep -E '^I[1-4] |passed' "$out/6.12.log"
[ "$rc" = 0 ] || fail "an invariant failed on the 6.12 line (traces in $out/6.12)"
