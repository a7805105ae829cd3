#!/usr/bin/env bash
# make submit: refused in one line without a poster identity and under the
# project's role address; with one, for each kernel line, the feature series
# re-applied on the base without the stable fixes (the 6.12.y line has one),
# under the poster's From: and Signed-off-by: only, To/Cc filled in, and each
# stable fix as a posting of its own.
# check: uses tree
. "$(dirname "$0")/lib.sh"
[ -d "$KSRC/.git" ] || fail "no tree (the tree test failed)"
home=$TMP/home
mkdir -p "$home"
sub() { HOME=$home GIT_CONFIG_NOSYSTEM=1 "$SCRIPTS/submit" --out "$TMP/out" 2>&1; }

out=$(sub)
rc=$?
[ "$rc" = 1 ] && [ "$(grep -c . <<<"$out")" = 1 ] && grep -q "no poster identity" <<<"$out" ||
	fail "no identity: wanted one line and exit 1, got exit $rc: $out"
echo "no identity: $out"
git config -f "$home/.gitconfig" user.name "Project" &&
	git config -f "$home/.gitconfig" user.email maintainers@users.noreply.a-seed-f82ce5fe.example
out=$(sub)
rc=$?
[ "$rc" = 1 ] && grep -q "role address" <<<"$out" || fail "role address accepted (exit $rc): $out"
echo "role address: $out"

git config -f "$home/.gitconfig" user.name "Jane Poster" &&
	git config -f "$home/.gitconfig" user.email jane@example.org
for line in $SW_LINES; do
(
export SW_BASE=$line
. "$TOP/scripts/lib/common.sh"
rm -rf "$TMP/out"
out=$(sub) || fail "$line: submit failed: $out"
nstable=$(git -C "$KSRC" log --format=%B "$BASE_TAG..HEAD" | grep -ci '^Cc: *stable@vger\.kernel\.org')
nall=$(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD")
mapfile -t feat < <(find "$TMP/out" -maxdepth 1 -name '[0-9]*.patch' ! -name '0000-*' | sort)
nfeat=${#feat[@]}
mapfile -t stab < <(find "$TMP/out/stable" -name '*.patch' | sort)
ns=${#stab[@]}
[ "$ns" = "$nstable" ] || fail "$ns stable posting(s) for $nstable stable fix(es)"
[ "$nfeat" = $((nall - nstable)) ] || fail "$nfeat feature patches for $((nall - nstable)) feature commits"
[ -f "$TMP/out/0000-cover-letter.patch" ] || fail "no cover letter"
! grep -q "SUBJECT HERE\|BLURB HERE" "$TMP/out/0000-cover-letter.patch" || fail "cover letter placeholders left"
for p in "$TMP"/out/*.patch "${stab[@]}"; do
	! grep -q "a-seed-f82ce5fe" "$p" || fail "$(basename "$p") still carries the project's address"
	grep -q "^From: Jane Poster <jane@example.org>" "$p" || fail "$(basename "$p"): From: is not the poster"
	grep -q "^To: " "$p" || fail "$(basename "$p"): no To:"
	case $p in */0000-cover-letter.patch) continue ;; esac
	grep -q "^Signed-off-by: Jane Poster <jane@example.org>" "$p" || fail "$(basename "$p"): not signed off by the poster"
done
for p in "${stab[@]}"; do
	grep -q "^Subject: \[PATCH $line.y\]" "$p" && grep -q "stable@vger.kernel.org" "$p" ||
		fail "$(basename "$p"): not a $line.y posting to stable"
done
# The postings apply with git am: the feature series on the bare base.
wt=$TMP/wt
sw_git -C "$KSRC" worktree add -q --detach "$wt" "$BASE_TAG" >/dev/null 2>&1 || fail "cannot add a worktree"
sw_git -C "$wt" am -q "${feat[@]}" >/dev/null 2>&1
rc=$?
git -C "$wt" am --abort >/dev/null 2>&1
git -C "$KSRC" worktree remove --force "$wt"
[ "$rc" = 0 ] || fail "the feature series does not git-am on $BASE_TAG"
echo "$line: $nfeat feature patches + cover letter, $ns stable posting(s); all From/Signed-off-by Jane Poster; the series applies on the base alone"
) || exit 1
done
