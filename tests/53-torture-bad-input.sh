#!/usr/bin/env bash
# scripts/torture refuses bad input with one line and a non-zero exit,
# before it builds or boots anything: an unknown option, a duration, flip
# interval, topology or flag list it cannot use, a missing kernel.
. "$(dirname "$0")/lib.sh"
expect_refusal "unknown option '--bogus'" "$SCRIPTS/torture" --bogus
expect_refusal "--duration must be seconds or minutes" "$SCRIPTS/torture" --duration 5h
expect_refusal "--duration leaves less than 10 s per topology" "$SCRIPTS/torture" --duration 15 \
	--kernel /dev/null --out "$TMP/t"
expect_refusal "--flip-ms must be whole milliseconds, not 'x'" "$SCRIPTS/torture" --flip-ms x
expect_refusal "--topology is llc, numa or both, not 'ring'" "$SCRIPTS/torture" --topology ring
expect_refusal "--flags must be sched feature names" "$SCRIPTS/torture" --flags "WA_IDLE_PREV; reboot"
expect_refusal "--flags needs a value" "$SCRIPTS/torture" --flags
expect_refusal "no kernel $TMP/none" "$SCRIPTS/torture" --kernel "$TMP/none" --out "$TMP/t"
