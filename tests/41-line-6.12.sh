#!/usr/bin/env bash
# The 6.12.y backport line stays green: its kernel builds with its guest
# configuration, and its selftests pass in make run's two cells (2 LLCs x 4,
# 3 LLCs x 2), every test of its flags passing in at least one of them --
# its EEVDF flags (TICK_INELIGIBLE, WAKEUP_INELIGIBLE) included.
# check: cpus all
export SW_BASE=6.12
. "$(dirname "$0")/lib.sh"
SW_FEAT_KERNEL=$SW_BASE . "$TOP/scripts/lib/features.sh"
"$SCRIPTS/build" >"$TMP/build.log" 2>&1 || { tail -n 5 "$TMP/build.log"; fail "the 6.12 kernel does not build"; }
grep -E '^build: \[3/3\]' "$TMP/build.log"
need_kernel
"$SCRIPTS/matrix" --cells "llc2x4 llc3x2" --out "$BUILD/check-run" >"$TMP/log" 2>&1
rc=$?
sed -n '/^| test/,/^$/p;/^Not in this kernel/p;/^Skip reasons/,/^Cells/p' "$TMP/log"
grep -E '^matrix: +[a-z0-9-]+ run|FAIL' "$TMP/log"
[ "$rc" = 0 ] || fail "a selftest failed on the 6.12 line (results in $BUILD/check-run)"
tsv=$BUILD/check-run/matrix.tsv
every_test_passes "$tsv"
grep -q '	ineligible\.tick\.runs	pass	' "$tsv" || fail "the EEVDF flags' test did not run on the 6.12 line"
echo "6.12 line: every test passed in at least one of make run's cells ($SW_FLAGS)"
