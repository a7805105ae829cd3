#!/usr/bin/env bash
# A patch that does not apply is named, with the file it conflicts in, and
# the tree is left at the last good state. Runs on a small synthetic base.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/src/linux-source-6.12/kernel/sched" "$TMP/p" "$TMP/new/Documentation"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\nEXTRAVERSION =\n' >"$TMP/src/linux-source-6.12/Makefile"
seq 1 20 >"$TMP/src/linux-source-6.12/kernel/sched/fair.c"
tar -cJf "$TMP/base.tar.xz" -C "$TMP/src" linux-source-6.12

# Two patches made from a scratch repo: the first applies, the second's
# context does not exist in the base.
git init -q "$TMP/g"
cp -r "$TMP/src/linux-source-6.12/." "$TMP/g/"
cd "$TMP/g" || exit 1
sw_git add -A && sw_git commit -qm base
sed -i 's/^5$/five/' kernel/sched/fair.c
sw_git add -A && sw_git commit -qm "sched/fair: Good patch"
sed -i 's/^15$/fifteen/' kernel/sched/fair.c
sw_git commit -qam "sched/fair: Bad patch"
sw_git format-patch -q -o "$TMP/p" HEAD~2..HEAD
sed -i 's/^ 14$/ fourteen/' "$TMP/p"/0002-*.patch
echo "new doc" >"$TMP/new/Documentation/x.rst"
printf '# base: 6.12.117\n0001-sched-fair-Good-patch.patch Documentation/x.rst\n0002-sched-fair-Bad-patch.patch\n' >"$TMP/p/series"

out=$("$SCRIPTS/tree" --tree "$TMP/linux" --patches "$TMP/p" --new-from "$TMP/new" --tarball "$TMP/base.tar.xz" 2>&1)
rc=$?
echo "$out" | tail -n 3
[ "$rc" != 0 ] || fail "scripts/tree succeeded with a patch that does not apply"
last=$(echo "$out" | tail -n 1)
echo "$last" | grep -q "patch 0002-sched-fair-Bad-patch.patch does not apply: conflict in kernel/sched/fair.c" ||
	fail "the error line does not name the patch and file: $last"
[ "$(echo "$out" | grep -c 'error')" = 1 ] || fail "more than one error line"
[ -f "$TMP/linux/Documentation/x.rst" ] || fail "new file of patch 1 not committed"
git -C "$TMP/linux" status --porcelain --untracked-files=no | grep -q . && fail "tree left dirty"
[ ! -d "$TMP/linux/.git/rebase-apply" ] || fail "git am left in progress"

# A second run with the same inputs fails the same way, and a fixed series
# then applies.
sed -i '/Bad-patch/d' "$TMP/p/series"
"$SCRIPTS/tree" --tree "$TMP/linux" --patches "$TMP/p" --new-from "$TMP/new" --tarball "$TMP/base.tar.xz" >/dev/null ||
	fail "the good patch alone does not apply"
echo "bad patch named; good series applied after the fix"
