#!/usr/bin/env bash
# The series applies to the Debian base with git am (scripts/tree), and
# leaves no background repack behind.
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/tree" || fail "scripts/tree failed"
n=$(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD")
want=$(grep -cv '^\s*\(#\|$\)' "$TOP/patches/series")
[ "$n" = "$want" ] || fail "$n commits on top of the base, series lists $want"
echo "$n commits on top of $BASE_TAG ($(base_version "$KSRC"))"
# No repack left running in the background: it would take the CPUs from
# the kernel build and the guests' tests that follow.
[ "$(git -C "$KSRC" config gc.auto)" = 0 ] || fail "gc.auto is not 0 in $KSRC"
sleep 1
for p in $(pgrep -f 'git(-core/git)? (gc|repack|pack-objects)'); do
	[ "$(readlink "/proc/$p/cwd")" = "$KSRC" ] && fail "a git gc runs in $KSRC after scripts/tree (pid $p)"
done
echo "no background git gc in $KSRC"
