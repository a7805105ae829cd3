#!/usr/bin/env bash
# Each kernel line's series applies to its Debian base with git am
# (scripts/tree), and leaves no background repack behind.
# check: alone
. "$(dirname "$0")/lib.sh"
for line in $SW_LINES; do
	(
		export SW_BASE=$line
		. "$TOP/scripts/lib/common.sh"
		"$SCRIPTS/tree" || fail "scripts/tree failed for the $line line"
		n=$(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD")
		want=$(grep -cv '^\s*\(#\|$\)' "$PATCHES/series")
		[ "$n" = "$want" ] || fail "$line: $n commits on top of the base, series lists $want"
		echo "$line: $n commits on top of $BASE_TAG ($(base_version "$KSRC")) in ${KSRC#"$TOP"/}"
		# No repack left running in the background: it would take the
		# CPUs from the kernel build and the guests' tests that follow.
		[ "$(git -C "$KSRC" config gc.auto)" = 0 ] || fail "gc.auto is not 0 in $KSRC"
		sleep 1
		for p in $(pgrep -f 'git(-core/git)? (gc|repack|pack-objects)'); do
			[ "$(readlink "/proc/$p/cwd")" = "$KSRC" ] && fail "a git gc runs in $KSRC after scripts/tree (pid $p)"
		done
		echo "$line: no background git gc in ${KSRC#"$TOP"/}"
	) || exit 1
done
