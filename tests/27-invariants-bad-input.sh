#!/usr/bin/env bash
# scripts/invariants refuses bad input with one line and a non-zero exit,
# before it builds or boots anything, and its two programs do the same:
# invload (the scenarios, run in the guest) and tracesum (the summaries).
. "$(dirname "$0")/lib.sh"
expect_refusal "unknown option '--bogus'" "$SCRIPTS/invariants" --bogus
expect_refusal "no configuration 'r2s1h1'" "$SCRIPTS/invariants" --configs "r1s1h1 r2s1h1"
expect_refusal "no scenario 'nosuch'" "$SCRIPTS/invariants" --scenarios "equal nosuch"
expect_refusal "--duration takes milliseconds, not '5x'" "$SCRIPTS/invariants" --duration 5x
expect_refusal "--duration: at least 100 ms, not '50'" "$SCRIPTS/invariants" --duration 50
expect_refusal "no cell 'bogus'" "$SCRIPTS/invariants" --cell bogus
expect_refusal "no kernel image at '$TMP/none'" "$SCRIPTS/invariants" --kernel "$TMP/none"
expect_refusal "no segments.tsv in '$TMP'" "$SCRIPTS/invariants" --judge "$TMP"
expect_refusal "--out needs a value" "$SCRIPTS/invariants" --out
. "$TOP/scripts/lib/common.sh"
build_tools invload tracesum
expect_refusal "--scenario, --cpu, --away and --hz are needed" "$BUILD/bin/invload" --scenario equal
expect_refusal "--cpu takes a whole number >= 0, not 'x'" "$BUILD/bin/invload" --cpu x
expect_refusal "unknown option or missing value '--bogus'" "$BUILD/bin/tracesum" --bogus
expect_refusal "--storm takes a number, not 'x'" "$BUILD/bin/tracesum" --storm x
echo "every refusal came at once, in one line"
