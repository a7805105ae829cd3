#!/usr/bin/env bash
# The series applies to the Debian base with git am (scripts/tree).
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/tree" || fail "scripts/tree failed"
n=$(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD")
want=$(grep -cv '^\s*\(#\|$\)' "$TOP/patches/series")
[ "$n" = "$want" ] || fail "$n commits on top of the base, series lists $want"
echo "$n commits on top of $BASE_TAG ($(base_version "$KSRC"))"
