#!/usr/bin/env bash
# make export of each line's tree, as make tree built it, reproduces its
# patches/LINE/ and the new files (shared, or the line's own copy under
# patches/LINE/new/) exactly; uncommitted work in the
# tree is never overwritten; an export from a tree made before the shared
# files changed is refused.
# check: uses tree
. "$(dirname "$0")/lib.sh"
for line in $SW_LINES; do
	(
		export SW_BASE=$line
		. "$TOP/scripts/lib/common.sh"
		[ -d "$KSRC/.git" ] || fail "no $line tree (the tree test failed)"
		out=$TMP/out-$line
		mkdir -p "$out/patches/$line"
		[ -f "$PATCHES/cover-letter" ] && cp "$PATCHES/cover-letter" "$out/patches/$line/"
		"$SCRIPTS/export" --dest "$out" >/dev/null || fail "scripts/export failed for $line"
		diff -ru "$PATCHES" "$out/patches/$line" || fail "exported $line patches differ from ${PATCHES#"$TOP"/}"
		. "$TOP/scripts/lib/series.sh"
		own=0
		for r in $(series_entries "$PATCHES/series" | awk '{for (i = 2; i <= NF; i++) print $i}'); do
			# The new files as the line sees them: shared, or its own.
			NEWFROM=$TOP new_view "$r" "$TMP/here-$line" || fail "no $r for $line here"
			NEWFROM=$out PATCHES=$out/patches/$line new_view "$r" "$TMP/out-view-$line" ||
				fail "$r ($line) was not exported"
			diff -ru "$TMP/here-$line/$r" "$TMP/out-view-$line/$r" || fail "exported $r ($line) differs"
			own=$((own + $(line_own "$r" | wc -l)))
		done
		echo "$line: ${PATCHES#"$TOP"/} and new files round-trip unchanged ($(find "$out/patches/$line" -type f | wc -l) files in patches/$line, $own of them the line's own copies of new files)"
	) || exit 1
done

# Uncommitted work: tree must refuse. (A file no build reads, so that a
# kernel built meanwhile from the tree is not touched.)
f=$KSRC/README
cp "$f" "$TMP/README.orig"
echo "uncommitted" >>"$f"
out=$("$SCRIPTS/tree" 2>&1)
rc=$?
cp "$TMP/README.orig" "$f"
touch -r "$TMP/README.orig" "$f"
[ "$rc" != 0 ] || fail "scripts/tree ran over uncommitted changes"
echo "$out" | grep -q "uncommitted changes" || fail "no clear refusal: $out"
echo "tree refuses uncommitted work: $(echo "$out" | tail -n 1)"

# A shared file changed here since the tree was made (another line's export,
# a pull): exporting the stale tree would overwrite it, and is refused.
st=$TOP/tools/testing/selftests/sched-wakeup/settings
cp "$st" "$TMP/settings.orig"
echo "# changed by another line's export" >>"$st"
out=$("$SCRIPTS/export" 2>&1)
rc=$?
cp "$TMP/settings.orig" "$st"
touch -r "$TMP/settings.orig" "$st"
[ "$rc" != 0 ] || fail "scripts/export wrote over a shared file changed since the tree was made"
[ "$(wc -l <<<"$out")" = 1 ] && grep -q "changed here since .* was made" <<<"$out" || fail "no one-line refusal: $out"
cmp -s "$st" "$TMP/settings.orig" || fail "the shared file was modified"
echo "export refuses a stale tree: $out"
