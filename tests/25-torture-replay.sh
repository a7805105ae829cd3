#!/usr/bin/env bash
# A torture's random choices come from its seed alone: featflip given the
# same seed writes the same sequence of flags (here to a stand-in features
# file), another seed another one, and the seed is printed first.
. "$(dirname "$0")/lib.sh"
build_tools featflip
ff=$BUILD/bin/featflip
flips() {
	echo "WA_IDLE_PREV IDLEST_UTIL NO_TICK_INELIGIBLE" >"$TMP/features"
	"$ff" -f "$TMP/features" -i 0 -n 200 -p -s "$1" WA_IDLE_PREV IDLEST_UTIL TICK_INELIGIBLE 2>/dev/null
}
flips 4242 >"$TMP/a"
flips 4242 >"$TMP/b"
flips 4243 >"$TMP/c"
head -n 1 "$TMP/a" | grep -qx "seed 4242" || fail "the seed is not printed first: $(head -n 1 "$TMP/a")"
[ "$(grep -c '^write ' "$TMP/a")" = 200 ] || fail "not 200 writes"
cmp -s "$TMP/a" "$TMP/b" || fail "seed 4242 gave two different sequences"
! cmp -s <(grep '^write ' "$TMP/a") <(grep '^write ' "$TMP/c") || fail "seeds 4242 and 4243 gave the same sequence"
echo "seed 4242 twice: the same 200 writes; seed 4243: another sequence"
expect_refusal "seed must be a number" "$SCRIPTS/torture" --seed 0
expect_refusal "seed must be a number" "$SCRIPTS/torture" --seed x
