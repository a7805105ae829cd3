#!/usr/bin/env bash
# A results directory that cannot be written is refused before any guest
# boots, in one line, by scripts/vm, scripts/bench and scripts/torture, and
# by the in-guest runner.
# check: after 01
# check: uses bench
. "$(dirname "$0")/lib.sh"
need_kernel
bad=/proc/sw-no-such-dir/results
expect_refusal "results directory $bad is not writable" "$SCRIPTS/vm" --out "$bad" -- true
expect_refusal "results directory .* is not writable" "$SCRIPTS/bench" --smoke --out "$bad"
expect_refusal "cannot create $bad or not writable" "$SCRIPTS/torture" --duration 60 --out "$bad"
mkdir -p "$TMP/bin" && touch "$TMP/bin/wakelat" "$TMP/bin/benchstat" && chmod +x "$TMP/bin"/*
expect_refusal "results directory $bad is not writable" bash "$SCRIPTS/lib/guest/run-bench" --out "$bad" --bin "$TMP/bin"
