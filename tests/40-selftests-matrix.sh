#!/usr/bin/env bash
# The sched-wakeup selftests pass, or skip with their reason, in make run's
# two cells (2 LLCs x 4, 3 LLCs x 2), which between them run every test;
# make check-full adds the cells of other situations: SMT, two NUMA nodes of
# 3 LLCs, CPU numbers with a hole, and HZ=250 (Debian's tick). The guests
# restore the features line and keep the console clean. The other cells of
# scripts/config/matrix.cells (2 and 4 CPUs, preempt=full, larger NUMA
# guests) run in 'make matrix'. A test of a flag this kernel line does not
# have must skip in every cell, naming the missing flag; every other test
# must pass somewhere.
# check: cpus all
# check: after 01
. "$(dirname "$0")/lib.sh"
need_kernel
SW_FEAT_KERNEL=$SW_BASE . "$TOP/scripts/lib/features.sh"
cells="llc2x4 llc3x2"
[ "${SW_CHECK_TIER:-full}" != full ] || cells+=" smt2x4 numa2x3x2 holes3x4 hz250-3x2"
"$SCRIPTS/matrix" --cells "$cells" --out "$BUILD/check-matrix" >"$TMP/log" 2>&1
rc=$?
sed -n '/^| test/,/^$/p;/^Not in this kernel/p;/^Skip reasons/,/^Cells/p' "$TMP/log"
grep -E '^matrix: +[a-z0-9-]+ run|FAIL' "$TMP/log"
[ "$rc" = 0 ] || fail "a selftest failed in the matrix (results in $BUILD/check-matrix)"
every_test_passes "$BUILD/check-matrix/matrix.tsv"
echo "every test of the $SW_BASE line's flags passed in at least one cell"
