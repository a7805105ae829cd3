#!/usr/bin/env bash
# 'git am patches/LINE/*.patch' on the line's bare base gives the whole
# series, new files included (the selftests, the document): the tree it
# makes is the one make tree makes, file for file. The patches are applied
# mail by mail into a private index of the base, as git am applies them
# (a checkout of a kernel tree costs minutes), and the result compared
# with the tree's HEAD. The copies at the new files' kernel paths here are
# what make tree folds in: that they equal the patches' is the same check.
# check: uses tree
. "$(dirname "$0")/lib.sh"
for line in $SW_LINES; do
	(
		export SW_BASE=$line
		. "$TOP/scripts/lib/common.sh"
		[ -d "$KSRC/.git" ] || fail "no $line tree (the tree test failed)"
		export GIT_INDEX_FILE=$TMP/index-$line
		git -C "$KSRC" read-tree "$BASE_TAG" || fail "cannot read $BASE_TAG into an index"
		n=0
		for p in "$PATCHES"/*.patch; do
			git -C "$KSRC" mailinfo "$TMP/msg" "$TMP/patch" <"$p" >/dev/null ||
				fail "$(basename "$p"): not a mail git am can read"
			git -C "$KSRC" apply --cached "$TMP/patch" 2>"$TMP/apply.log" ||
				fail "$(basename "$p") does not apply on the base after the ones before it: $(head -n 1 "$TMP/apply.log")"
			n=$((n + 1))
		done
		am=$(git -C "$KSRC" write-tree) || fail "cannot write the applied tree"
		unset GIT_INDEX_FILE
		tree=$(git -C "$KSRC" rev-parse "HEAD^{tree}")
		if [ "$am" != "$tree" ]; then
			git -C "$KSRC" diff --stat "$tree" "$am" | tail -n 5
			fail "$line: git am of patches/$line/*.patch differs from make tree's tree"
		fi
		new=$(git -C "$KSRC" diff --name-only --diff-filter=A "$BASE_TAG" HEAD | wc -l)
		echo "$line: git am of the $n patches gives make tree's tree ($new new files among them)"
	) || exit 1
done
