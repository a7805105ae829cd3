#!/usr/bin/env bash
# make export of the tree that make tree built reproduces patches/ and the
# new files exactly; uncommitted work in the tree is never overwritten.
. "$(dirname "$0")/lib.sh"
[ -d "$KSRC/.git" ] || fail "no tree (the tree test failed)"
mkdir -p "$TMP/out/patches"
[ -f "$TOP/patches/0000-cover-letter.patch" ] && cp "$TOP/patches/0000-cover-letter.patch" "$TMP/out/patches/"
"$SCRIPTS/export" --dest "$TMP/out" || fail "scripts/export failed"
diff -ru "$TOP/patches" "$TMP/out/patches" || fail "exported patches differ from patches/"
for r in $(sed -e 's/#.*//' "$TOP/patches/series" | awk '{for (i = 2; i <= NF; i++) print $i}'); do
	diff -ru "$TOP/$r" "$TMP/out/$r" || fail "exported $r differs"
done
echo "patches/ and new files round-trip unchanged ($(ls "$TMP/out/patches" | wc -l) files)"

# Uncommitted work: tree must refuse, export must refuse.
f=$KSRC/kernel/sched/fair.c
cp "$f" "$TMP/fair.c.orig"
echo "/* uncommitted */" >>"$f"
out=$("$SCRIPTS/tree" 2>&1)
rc=$?
cp "$TMP/fair.c.orig" "$f"
touch -r "$TMP/fair.c.orig" "$f"
[ "$rc" != 0 ] || fail "scripts/tree ran over uncommitted changes"
echo "$out" | grep -q "uncommitted changes" || fail "no clear refusal: $out"
echo "tree refuses uncommitted work: $(echo "$out" | tail -n 1)"
